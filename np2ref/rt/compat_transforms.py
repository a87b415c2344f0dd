"""The caller's transformations around `.pure`, read from JAX's tracers (the rows of compat.py's
table on jax.jacfwd's batched tangents, forward.py, and on `.pure`'s fences under a caller's vmap
or derivative, pure_fences.py): tracer and trace class names, `_trace`, `val`/`batch_dim`,
`primal`/`tangent`. Each read has compat.py's kind of fallback: not seen, `.pure` runs as traced."""

import jax
import numpy as np

from .compat import _npr_BATCH_TRACERS, _npr_current_trace, _npr_TANGENT_TRACERS, _npr_Tracer


def _npr_forward_batch(leaves):
    """The vmap trace that batches the tangents, and none of the primals, of the JVP tracers
    among `leaves` (jax.jacfwd, a vmap of jax.jvp over tangents); None otherwise. JAX 0.10.2
    batches a Ref's primal with its tangent there, and jacfwd refuses a batched primal."""
    trace = None
    for leaf in leaves:
        x = leaf
        for _ in range(16):
            if not isinstance(x, _npr_Tracer):
                break
            tangent = getattr(x, "tangent", None) if type(x).__name__ == "JVPTracer" else None
            if type(tangent).__name__ in _npr_BATCH_TRACERS and getattr(tangent, "_trace", None) is not None:
                trace = tangent._trace
                break
            x = getattr(x, "val", getattr(x, "primal", None))
        if trace is not None:
            break
    if trace is None or any(_npr_batched_by(leaf, trace) for leaf in leaves):
        return None
    return trace


def _npr_batched_by(x, trace):
    """Whether x, or a primal or value under it, is batched by the vmap trace `trace`."""
    for _ in range(16):
        if not isinstance(x, _npr_Tracer):
            return False
        if type(x).__name__ in _npr_BATCH_TRACERS and getattr(x, "_trace", None) is trace:
            return True
        x = getattr(x, "val", getattr(x, "primal", None))
    return False


def _npr_first_member(x, trace):
    """x without `trace`'s batch axis (its first member) where `trace` batches it: for a value
    all of whose members are the same (a primal the tangents' vmap batched)."""
    if type(x).__name__ in _npr_BATCH_TRACERS and getattr(x, "_trace", None) is trace \
            and getattr(x, "batch_dim", None) is not None:
        return jax.numpy.take(x.val, 0, axis=x.batch_dim)
    return x


def _npr_pure_transform(leaves):
    """("vmap", {position: (batch axis or None, size)}) or ("jvp", {position: primal value}) when the caller's
    jax.vmap (or jvp, grad) is the trace `.pure` is called in and the one transformation of its
    traced leaves (by position): a vmap's or a derivative's tracer of that trace over a value a
    jit traces or a concrete one, or a jit's value. None otherwise (no transformation, a jit's
    alone, or one nested in another: .pure runs as traced, unfenced)."""
    trace = _npr_current_trace()
    kind = {"BatchTrace": "vmap", "JVPTrace": "jvp", "LinearizeTrace": "jvp"}.get(type(trace).__name__)
    own = _npr_BATCH_TRACERS if kind == "vmap" else _npr_TANGENT_TRACERS
    found = {}
    for i, leaf in enumerate(leaves):
        if kind is None or not isinstance(leaf, _npr_Tracer) or type(leaf).__name__ == "DynamicJaxprTracer":
            continue
        under = getattr(leaf, "val" if kind == "vmap" else "primal", None)
        if type(leaf).__name__ not in own or getattr(leaf, "_trace", None) is not trace or \
                isinstance(under, _npr_Tracer) and type(under).__name__ != "DynamicJaxprTracer":
            return None
        if kind == "vmap":  # (its batch axis, the batch's size)
            found[i] = (leaf.batch_dim, None if leaf.batch_dim is None else np.shape(under)[leaf.batch_dim])
        else:
            found[i] = under
    return (kind, found) if found else None
