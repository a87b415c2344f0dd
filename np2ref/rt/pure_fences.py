"""`.pure` under the caller's jax.vmap, jax.grad and jax.jit, nested in any order, and called
eagerly, runs the program the jitted call runs: XLA's rewrites that change NumPy's answers fenced
(divisions.py), the peepholes, fission and accurate64 applied (docs/semantics.md, "Divisions that
decide are NumPy's divisions").

A fence has to be spliced into the program XLA compiles, after every transformation is applied
(a batched 0-d division is `x / broadcast(c)`, which a barrier on `c` no longer guards). So
`.pure` peels the caller's transformations one at a time, from the current trace down
(compat_transforms._npr_pure_level), and runs what is beneath each in the trace beneath it:
- vmap: a `jax.custom_batching.custom_vmap` whose batching rule receives the caller's batched
  arrays (values of the trace beneath) and runs `jax.vmap` of the program on them, itself peeled
  again: the runtime sees the batched values as it did, and the fence reaches the batched program;
- jvp, grad: a `jax.custom_jvp` (_npr_value_of) swaps each value of the program traced under the
  derivative (its tangent JAX's rules) for the value the program peeled beneath the derivative
  gives on the primal values: the values are NumPy's, the derivative the one JAX's rules give
  (a tangent fenced would be no longer linear);
- jit: divisions._npr_fenced, which traces the program into a jaxpr, fences it and runs it;
- eager (concrete arrays, no trace): the same fenced jaxpr, run one primitive at a time as JAX
  dispatches eagerly. A fold across operations cannot happen there, but one jax.numpy function is
  one small XLA program that the simplifier rewrites (`x / 0.1` is one `true_divide`, a multiply
  by 10.0 to XLA; `x * b` one multiply of a converted boolean; a sum of one element a reshape);
  run primitive by primitive and fenced, each is NumPy's. Where the trace refuses a program the
  eager run takes (a loop on data that reverse mode cannot go through, a boolean mask's size),
  it runs eagerly as before. (The price: a trace and a fence on every eager call, which
  jax.jit(f.pure) pays once.)
A derivative's values come from the program peeled beneath it; the tangents' own primal
residuals (`x * np.floor(x / 0.1)`'s derivative is the cell) are the traced program's, which XLA
rewrites under the caller's jit (docs/transforms.md, "Honest limits").
"""

import jax

from .compat import _npr_beneath, _npr_Tracer
from .compat_transforms import _npr_pure_level
from .compat_jaxpr import _npr_aval
from .core import NprError
from .divisions import _npr_fenced, _npr_rewrites_on

# what a trace of the program raises where an eager run (or a derivative's trace) goes through
_NPR_TRACE_GAPS = (NprError, jax.errors.JAXTypeError, jax.errors.NonConcreteBooleanIndexError)


def _npr_pure_fenced(values, call):
    """call(values) (a pytree: the arguments by name to the traced run's result), run as the
    jitted call's program under the caller's transformations, or eagerly (the module's docstring)."""
    leaves, tree = jax.tree_util.tree_flatten(values)
    if not _npr_rewrites_on()[0] or _npr_pure_level(leaves) is None:
        return call(values)
    positions = [i for i, leaf in enumerate(leaves) if isinstance(leaf, (_npr_Tracer, jax.Array))]
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
    outs = iter(_npr_peeled(member, args, box))
    given = box["given"]
    return jax.tree_util.tree_unflatten(box["tree"], [args[given[j]] if j in given else next(outs)
                                                       if isinstance(v, _npr_Tracer) else v
                                                       for j, v in enumerate(box["leaves"])])


def _npr_peeled(member, args, box):
    """member(*args)'s computed results, the current trace's transformation applied by its own
    hook and what is beneath it peeled in turn; as traced where the trace is not one known."""
    level = _npr_pure_level(args)
    if level is None:
        return member(*args)
    kind, found, trace = level
    if kind == "jit":
        return _npr_fenced(lambda: member(*args), discharge=True)
    if kind == "eager":
        return _npr_eager(member, args)
    if not found:  # (no argument of this transformation's: computed beneath it)
        with _npr_beneath(trace):
            return _npr_peeled(member, args, box)
    if kind == "vmap":
        return _npr_vmapped(member, args, [found.get(i, (None, None)) for i in range(len(args))], box)
    return _npr_differentiated(member, args, [found.get(i, a) for i, a in enumerate(args)], trace, box)


def _npr_eager(member, args):
    """member(*args) on concrete arrays: the fenced program run primitive by primitive (the
    module's docstring); eagerly as before where a trace refuses it."""
    try:
        return _npr_fenced(lambda: member(*args))
    except _NPR_TRACE_GAPS:
        return member(*args)


def _npr_vmapped(member, args, axes, box):
    """member's array results under the caller's vmap: a custom_vmap whose rule runs jax.vmap of
    member (a batched argument's batch axis first, as custom_vmap hands it over) on the batched
    values, peeled beneath. `axes`: each argument's (batch axis, the batch's size), (None, None)
    where it is shared. The unbatched member is traced once by custom_vmap: its results' shapes."""
    batched = [d is not None for d, _ in axes]
    if not any(batched):  # (the vmap's tracers, none of them batched: nothing to batch)
        return member(*args)
    size = next(n for d, n in axes if d is not None)
    many = jax.vmap(member, in_axes=[0 if b else None for b in batched], axis_size=size)

    def rule(axis_size, in_batched, *xs):
        if list(map(bool, in_batched)) != batched or axis_size != size:  # pragma: no cover
            raise ValueError("np2ref: .pure's arguments were batched otherwise than traced")
        outs = list(_npr_peeled(many, list(xs), box))
        return outs, [True] * len(outs)

    one = jax.custom_batching.custom_vmap(member)
    one.def_vmap(rule)
    return one(*args)


def _npr_differentiated(member, args, primals, trace, box):
    """member's array results under the caller's jvp (grad): traced as they were (the runtime sees
    the tangents: refs.py's discharges, loops that reverse mode can go through), each value then
    swapped for the one member gives on the arguments' primal values, peeled beneath the
    derivative (a Ref made there is no derivative's), by a custom_jvp that keeps the tangent (a
    custom_jvp around the whole program put its Refs in the tangent program, which JAX 0.10.2
    could not transpose). Where that run refuses the program (a derivative's trace may take what
    a jit's cannot), the values stay as traced; so does a value that run does not compute (a
    Python number there: an early exit taken)."""
    traced = member(*args)
    direct = dict(box)
    try:
        with _npr_beneath(trace):
            values = _npr_peeled(member, primals, box)
    except _NPR_TRACE_GAPS:  # (a refusal, a trace gap)
        box.update(direct)
        return traced
    apart = dict(box)
    box.update(direct)  # (the values are the traced run's leaves, as that run shaped them)
    if apart["tree"] != direct["tree"]:
        return traced
    fenced = dict(zip(_npr_computed(apart), values))
    return [_npr_value_of(fenced[j], t) if j in fenced and _npr_aval(fenced[j]) == _npr_aval(t) else t
            for j, t in zip(_npr_computed(direct), traced)]


def _npr_computed(run):
    """The positions, among a run's result leaves, of those its program computes (member's list)."""
    return [j for j, v in enumerate(run["leaves"]) if isinstance(v, _npr_Tracer) and j not in run["given"]]


@jax.custom_jvp
def _npr_value_of(fenced, traced):
    """`fenced` (the fenced program's value), with `traced`'s tangent."""
    return fenced


@_npr_value_of.defjvp
def _npr_value_of_jvp(primals, tangents):
    return primals[0], tangents[1]
