"""`jax.jacfwd` of `.pure`: the primal computed apart from the batched tangents.

jax.jacfwd is a vmap of jax.jvp over a basis of tangents. JAX 0.10.2 keeps a Ref's primal and
tangent together, so a program that makes Refs (every converted program) comes out of the vmap
with its primal batched too, and jacfwd, which asks for an unbatched primal (`out_axes=None`),
raised "at vmap out_axes[0], got axis spec None but output was batched on axis 0" for every
program. Here `.pure` is called through a custom_jvp whose rule runs jax.jvp of the program on
the tangents as given and returns the primal's first member: the primals are not batched by
that vmap (compat._npr_forward_batch checks it), so every member of the primal is the same
value, and the tangents are JAX's own. Nothing else changes: jit, vmap, grad and jvp take
`.pure` as before."""

import jax

from .compat import _npr_Tracer
from .compat_transforms import _npr_first_member, _npr_forward_batch
from .core import _npr_state


def _npr_forward_trace(args, kwargs):
    """The vmap trace of a jax.jacfwd around this call (compat._npr_forward_batch), or None;
    None inside the custom_jvp made here (no second one around the same call)."""
    if _npr_state.get("primal_apart"):
        return None
    return _npr_forward_batch(jax.tree_util.tree_leaves((args, kwargs)))


def npr_primal_apart(pure, trace, args, kwargs):
    """pure(*args, **kwargs) under a jax.jacfwd whose vmap is `trace`: through a custom_jvp
    of its traced leaves (the other leaves, Python numbers and concrete arrays, closed over);
    the result's non-array leaves (a Python int returned) come back as pure made them."""
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    traced = [i for i, leaf in enumerate(leaves) if isinstance(leaf, _npr_Tracer)]
    made = {}

    def run(*values):
        filled = list(leaves)
        for i, v in zip(traced, values):
            filled[i] = v
        a, k = jax.tree_util.tree_unflatten(tree, filled)
        outer = _npr_state.get("primal_apart")
        _npr_state["primal_apart"] = True
        try:
            out = pure(*a, **k)
        finally:
            _npr_state["primal_apart"] = outer
        out_leaves, made["tree"] = jax.tree_util.tree_flatten(out)
        made["kept"] = {i: leaf for i, leaf in enumerate(out_leaves) if not _npr_array(leaf)}
        return tuple(leaf for leaf in out_leaves if _npr_array(leaf))

    apart = jax.custom_jvp(run)

    @apart.defjvp
    def _rule(primals, tangents):
        out, out_tangents = jax.jvp(run, primals, tangents)
        return tuple(_npr_first_member(x, trace) for x in out), out_tangents

    arrays = iter(apart(*[leaves[i] for i in traced]))
    kept = made["kept"]
    return jax.tree_util.tree_unflatten(made["tree"], [kept[i] if i in kept else next(arrays)
                                                      for i in range(made["tree"].num_leaves)])


def _npr_array(leaf) -> bool:
    return isinstance(leaf, (jax.Array, _npr_Tracer)) or hasattr(leaf, "__jax_array__")
