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


def _npr_pure_level(leaves):
    """How `.pure` runs at the current trace (pure_fences.py), one transformation at a time:
    ("vmap", {position: (batch axis or None, size)}, trace) or ("jvp", {position: primal value}, trace)
    for the caller's jax.vmap (jvp, grad) whose tracers are those leaves (by position; a leaf of a
    trace beneath it is a value that transformation does not touch); ("jit", {}, trace) when every
    traced leaf is a jit's (jax.jit, make_jaxpr) and a jit's trace is current; ("eager", {}, trace)
    when nothing is traced. None otherwise (a trace or tracer not known, a leaf of a trace not
    beneath the current one: .pure runs as traced, unfenced)."""
    trace = _npr_current_trace()
    name = type(trace).__name__
    tracers = {i: leaf for i, leaf in enumerate(leaves) if isinstance(leaf, _npr_Tracer)}
    if name == "EvalTrace":
        return None if tracers else ("eager", {}, trace)
    if name == "DynamicJaxprTrace":
        jit = all(type(v).__name__ == "DynamicJaxprTracer" for v in tracers.values())
        return ("jit", {}, trace) if jit and tracers else None
    kind = {"BatchTrace": "vmap", "JVPTrace": "jvp", "LinearizeTrace": "jvp"}.get(name)
    own = _npr_BATCH_TRACERS if kind == "vmap" else _npr_TANGENT_TRACERS
    beneath, below = [], getattr(trace, "parent_trace", None)
    while below is not None and len(beneath) < 64:
        beneath.append(below)
        below = getattr(below, "parent_trace", None)
    found = {}
    for i, leaf in tracers.items():
        mine = getattr(leaf, "_trace", None)
        if kind is None or mine is not trace and not any(mine is t for t in beneath):
            return None
        if mine is not trace:
            continue
        if type(leaf).__name__ not in own:
            return None
        if kind == "vmap":  # (its batch axis, the batch's size)
            found[i] = (leaf.batch_dim, None if leaf.batch_dim is None else np.shape(leaf.val)[leaf.batch_dim])
        else:
            found[i] = leaf.primal
    return kind and (kind, found, trace)
