"""A lax loop whose body rebinds a carried Ref (issue 37 case 1):

    for i in range(n):          # y: the caller's array
        y += v                  # writes the buffer y names
        y = y % 10              # y names a new buffer from here on

NumPy's first iteration writes the caller's buffer; every later one writes the buffer the
previous iteration bound. A lax loop closes over Refs (it cannot carry one), so npr_for runs the
first iteration on its own (traced once, outside the loop: it writes the caller's buffer and
binds a new one) and the rest as a lax loop over one Ref allocated for the loop, whose contents
each iteration replaces with those of the buffer it binds ("refill"). That is exact when nothing
but the rebound name still sees either buffer at the iteration's end: the old one is then
unreachable in NumPy (replacing its contents changes nothing anyone reads), and the new one is
reachable only through the name, now bound to the loop's Ref holding the same values. Checked
here at trace time (another carried name, a view of either, a container); otherwise the loop runs
as the Python loop it was (static trip count) or is refused (NPR011).

A loop whose trip count depends on data would need its first iteration under a `lax.cond`,
after which the name is the caller's buffer or a new one depending on the data: refused (NPR011).
"""

import jax
import jax.numpy as jnp


class _NprPeelFirst(Exception):
    """npr_for: run the loop's first iteration on its own (traced once, its index a Python int),
    then the loop from the second. Raised (static bounds only) when the loop carries a Python
    float that its body rebinds to a narrower NumPy float (`acc = 0.3`, then `acc = acc * 3.0 +
    f32[i]`: NumPy's first iteration computes `acc * 3.0` in Python floats, a float32 carry would
    round 0.3 first), or a Ref its body rebinds (`positions`: those carry positions; the rest of
    the loop refills them: module docstring)."""

    def __init__(self, positions=()):
        super().__init__()
        self.positions = tuple(positions)


class _NprRebindPython(Exception):
    """A refilled loop found the rebinding not exact as a refill (`reason`): npr_for runs the
    rest of the loop as Python (static bounds)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


_NPR_TRACED_REBIND = ("np2ref NPR011: a loop whose trip count depends on array data rebinds a name "
                      "that holds an array written in place (`y += v; y = y % L`): after the loop "
                      "the name would be the caller's array or a new one depending on the data")


def _npr_check_rebound(fixed, new, static, refill=False, before=frozenset()):
    """The body's new carry `new`, checked against the Refs `fixed` it was given (by position).
    A Ref holding a Python number (`t = 0.0`, written as an array later) that the body rebinds
    (`t += a[i]`), or any carried Ref the body rebinds (outside a refilled loop), makes npr_for
    run the first iteration on its own (_NprPeelFirst), as does a carried value the body binds
    to a Ref (`u = unew`, unew written); with a trip count read from data,
    NPR011. In a refilled loop (`refill`; `before`: the ids of the Refs reachable when the
    iteration began) a rebound position's new array is stored into its Ref, which stays carried."""
    items = new if isinstance(new, tuple) else (new,)
    # a value the body binds to an array it writes (`u = unew`, unew a Ref): rebound as well
    out, rebound = list(items), [i for i, v in enumerate(items) if i not in fixed and _npr_is_ref(v)]
    for i, ref in fixed.items():
        if i == "tuple" or items[i] is ref:
            continue
        if _npr_np_weak_kind(npr_load(ref)) is not None:
            if not static:
                raise NprUnsupported("np2ref NPR011: a loop whose trip count depends on data rebinds a "
                                     "Python number to an array that the function writes")
            raise _NprPeelFirst()
        if not refill:
            rebound.append(i)
            continue
        why = _npr_refill_blocker(i, ref, items, before)
        if why is not None:
            if not static:
                raise NprUnsupported(f"{_NPR_TRACED_REBIND} ({why})")
            raise _NprRebindPython(why)
        ref[...] = npr_load(items[i])  # same shape and dtype (checked): the buffer it binds, copied
        out[i] = ref
    if rebound:
        if not static:
            raise NprUnsupported(_NPR_TRACED_REBIND)
        raise _NprPeelFirst(rebound)
    return tuple(out) if isinstance(new, tuple) else out[0]


def _npr_refill_blocker(i, ref, items, before):
    """Why storing items[i] into `ref` (the buffer position i held) is not the rebinding, or None."""
    new = items[i]
    if isinstance(new, NprView) or (isinstance(new, jax.Ref) and id(new) in before):
        return "the name is rebound to a view of an array or to an array that another name holds"
    if new is None or not isinstance(new, (jax.Array, jax.Ref, np.ndarray, np.generic, int, float, bool, complex)):
        return "the name is rebound to something that is not an array"
    value = npr_load(new)
    if tuple(jnp.shape(value)) != tuple(ref.shape) or jnp.result_type(value) != ref.dtype:
        return "the array the name is rebound to changes shape or dtype from one iteration to the next"
    others = [v for j, v in enumerate(items) if j != i]
    seen = {id(r) for r in _npr_reachable_refs([], others)}
    if id(ref) in seen or (isinstance(new, jax.Ref) and id(new) in seen):
        return "another name the loop carries holds the array it rebinds"
    return None


def _npr_refillable(carry, positions):
    """The carry a peeled first iteration left, with each rebound position a Ref (a plain array
    the body bound becomes a Ref of its own for the refilled loop: nothing else holds it)."""
    items = list(carry) if isinstance(carry, tuple) else [carry]
    for i in positions:
        v = items[i]
        if isinstance(v, (jax.Array, np.ndarray)) and not isinstance(v, jax.Ref) and np.ndim(v) >= 0:
            items[i] = jax.new_ref(jnp.asarray(v))
    return tuple(items) if isinstance(carry, tuple) else items[0]


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.
import numpy as np  # noqa: E402
from .views import npr_load, NprView  # noqa: E402
from .np_dtypes import _npr_np_weak_kind  # noqa: E402
from .refs import _npr_reachable_refs  # noqa: E402
from .ops import _npr_is_ref  # noqa: E402
from .core import NprUnsupported  # noqa: E402
