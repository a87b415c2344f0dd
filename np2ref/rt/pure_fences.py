"""`.pure` under the caller's jax.vmap or jax.grad runs the program the jitted call runs: XLA's
rewrites that change NumPy's answers fenced (divisions.py), the peepholes, fission and accurate64
applied (docs/semantics.md, "Divisions that decide are NumPy's divisions").

Under the caller's jit alone `.pure` is fenced by divisions._npr_fenced, which re-evaluates the
program it traced. Under a vmap or a derivative that fails: the re-evaluated jaxpr saw the
vmap's or the JVP's tracers as constants (lax loops broke, "Body jaxpr has consts", and refs.py
could not see that it was being differentiated). So each transformation is applied again, by
`.pure`, in a trace of its own, and handed back to the caller through JAX's own hook for it:
- vmap: the program traced under `jax.vmap` of its own (the runtime sees the batched values as it
  did), on abstract values of the batched shapes; fenced; run by the batching rule of a
  `jax.custom_batching.custom_vmap` on the caller's batched arrays;
- jvp, grad: a `jax.custom_jvp` whose primal is the fenced program (_npr_fenced) and whose tangent
  is the program's own JVP (`jax.jvp`, the runtime seeing the tangents as it did): the values are
  NumPy's, the derivative the one JAX's rules give (a tangent fenced would be no longer linear).
Where the caller nests transformations (a vmap of a grad), `.pure` runs as traced (XLA's rewrites
stay there), as it does for a call of concrete arrays.
"""

import jax
import jax.numpy as jnp

from .compat import _npr_discharged, _npr_Tracer
from .compat_transforms import _npr_pure_transform
from .compat_jaxpr import _npr_aval, _npr_replace, _npr_run_jaxpr
from .core import NprError
from .divisions import _npr_rewrites_on, _npr_rewritten


def _npr_pure_fenced(values, call):
    """call(values) (a pytree: the arguments by name to the traced run's result), run as the
    jitted call's program under the caller's vmap or jvp/grad (the module's docstring)."""
    leaves, tree = jax.tree_util.tree_flatten(values)
    route = _npr_pure_transform(leaves)
    on, fence = _npr_rewrites_on()
    if route is None or not on:
        return call(values)
    positions = [i for i, leaf in enumerate(leaves) if isinstance(leaf, _npr_Tracer)]
    box = {}

    def member(*xs):  # the run on xs at `positions`: its traced array leaves (the rest kept in box)
        full = list(leaves)
        for i, x in zip(positions, xs):
            full[i] = x
        out, box["tree"] = jax.tree_util.tree_flatten(call(jax.tree_util.tree_unflatten(tree, full)))
        given = {id(x): k for k, x in enumerate(xs)}  # an argument returned as it is: the caller's own
        box["leaves"], box["given"] = out, {j: given[id(v)] for j, v in enumerate(out) if id(v) in given}
        return [out[j] for j in _npr_computed(box)]

    args = [leaves[i] for i in positions]
    if route[0] == "vmap":
        outs = iter(_npr_vmapped(member, args, [route[1].get(i, (None, None)) for i in positions], fence))
    else:
        outs = iter(_npr_differentiated(member, args, [route[1].get(i, leaves[i]) for i in positions], fence, box))
    given = box["given"]
    return jax.tree_util.tree_unflatten(box["tree"], [args[given[j]] if j in given else next(outs)
                                                       if isinstance(v, _npr_Tracer) else v
                                                       for j, v in enumerate(box["leaves"])])


def _npr_vmapped(member, args, axes, fence):
    """member's array results under the caller's vmap: jax.vmap(member) traced on abstract values
    (a batched argument's batch axis first, as custom_vmap hands it over), rewritten, and run on
    the batched arrays by custom_vmap's rule. `axes`: each argument's (batch axis, the batch's size),
    (None, None) where it is shared."""
    batched = [d is not None for d, _ in axes]
    if not any(batched):  # (the vmap's tracers, none of them batched: nothing to batch)
        return member(*args)
    size = next(n for d, n in axes if d is not None)
    program = _npr_apart(jax.vmap(member, in_axes=[0 if b else None for b in batched], axis_size=size),
                         [_npr_struct_of(a, b, size) for a, b in zip(args, batched)], fence)

    def rule(axis_size, in_batched, *xs):
        if list(map(bool, in_batched)) != batched or axis_size != size:  # pragma: no cover
            raise ValueError("np2ref: .pure's arguments were batched otherwise than traced")
        return list(_npr_run_jaxpr(program.jaxpr, program.consts, *xs)), [True] * len(program.out_avals)

    one = jax.custom_batching.custom_vmap(lambda *xs: [jnp.zeros(o.shape[1:], o.dtype) for o in program.out_avals])
    one.def_vmap(rule)
    return one(*args)


def _npr_differentiated(member, args, primals, fence, box):
    """member's array results under the caller's jvp (grad): traced as they were (the runtime sees
    the tangents: refs.py's discharges, loops that reverse mode can go through), each value then
    swapped for the one jax.jit(.pure)'s fenced program gives on the arguments' primal values
    (its Refs discharged: a Ref is differentiated even where no tangent reaches it) by a
    custom_jvp that keeps the tangent (a custom_jvp around the whole program put its Refs in the
    tangent program, which JAX 0.10.2 could not transpose). Where jax.jit(.pure) refuses the
    program (a derivative's trace may take what a jit's cannot), the values stay as traced; so
    does a value that program does not compute (a Python number there: an early exit taken)."""
    traced = member(*args)
    direct = dict(box)
    try:
        program = _npr_discharged(_npr_apart(member, [_npr_struct_of(p, False, 0) for p in primals], fence))
    except (NprError, jax.errors.JAXTypeError, jax.errors.NonConcreteBooleanIndexError):  # (a refusal, a trace gap)
        box.update(direct)
        return traced
    apart = dict(box)
    box.update(direct)  # (the values are the traced run's leaves, as that run shaped them)
    if apart["tree"] != direct["tree"]:
        return traced
    fenced = dict(zip(_npr_computed(apart), _npr_run_jaxpr(program.jaxpr, program.consts, *primals)))
    return [_npr_value_of(fenced[j], t) if j in fenced and _npr_aval(fenced[j]) == _npr_aval(t) else t
            for j, t in zip(_npr_computed(direct), traced)]


def _npr_computed(run):
    """The positions, among a run's result leaves, of those its program computes (member's list)."""
    return [j for j, v in enumerate(run["leaves"]) if isinstance(v, _npr_Tracer) and j not in run["given"]]


def _npr_apart(fn, structs, fence):
    """fn traced on `structs` (a ClosedJaxpr), rewritten as the jitted call's program is."""
    closed = jax.make_jaxpr(fn)(*structs)
    return _npr_replace(closed, jaxpr=_npr_rewritten(closed, fence))


def _npr_struct_of(x, batched, size):
    """A ShapeDtypeStruct of one member's value x (batched: the whole batch's, its axis first)."""
    aval = _npr_aval(x)
    shape = (size, *aval.shape) if batched else aval.shape
    return jax.ShapeDtypeStruct(shape, aval.dtype, weak_type=getattr(aval, "weak_type", False))


@jax.custom_jvp
def _npr_value_of(fenced, traced):
    """`fenced` (the fenced program's value), with `traced`'s tangent."""
    return fenced


@_npr_value_of.defjvp
def _npr_value_of_jvp(primals, tangents):
    return primals[0], tangents[1]
