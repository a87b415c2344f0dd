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

A loop whose trip count depends on data (`while t < T:`, `for i in range(k)` with k traced)
cannot run its first iteration apart at trace time. It runs every iteration on the loop's Ref,
filled from the caller's buffer before the loop; at the end of the first iteration (the loop
index at its start, or a carried flag), before the refill, the caller's buffer takes the Ref's
contents: what NumPy's first iteration left in it, since only the rebound name reaches it in
the body (checked). After a loop that ran, the name is the loop's Ref, as NumPy's is a new
array. After one that did not run NumPy's name is still the caller's array, which no static
binding can say, and which under jax.vmap differs from one batch member to the next. Where no
other name may share the caller's array (`sole`: the analysis's storage roots, and no two
arguments of the call holding one buffer) the name is the loop's Ref either way, holding the
same values as the caller's when the loop ran no trip, and the rebinding is linked: where
(per member) it ran no trip, the caller's buffer takes the Ref's contents at the end of the
scope that holds the name (the function's call, or the refilled loop's trip the loop ran in),
`where(none_ran, ref, caller)`. Nothing else reads the caller's buffer before then, and the
Ref's contents are all that the name wrote there. Where the Ref outlives that scope (the
function returns it: NumPy returns the caller's own array or a new one, by the data), or no
scope can hold the link (a loop inside another loop's body, another name sharing the
buffer), the call refuses when the loop ran no trip (NPR011, a run-time check like an index
check's, made before anything is written back); where no run-time check can be made (`.pure`,
`bounds="unchecked"`), the trace refuses (NPR011) instead of giving a wrong answer there.
"""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np

from .compat import _npr_current_trace
from .bounds import _npr_no_checks, _npr_record_check
from .core import _npr_state, npr_load, NprUnsupported
from .np_dtypes import _npr_np_weak_kind
from .promotion import _npr_weak_value
from .python_loops import _npr_changed, _npr_containers
from .refs import _npr_reachable_refs
from .views import _npr_is_ref, NprView


class _NprPeelFirst(Exception):
    """npr_for: run the loop's first iteration on its own (traced once, its index a Python int),
    then the loop from the second. Raised (static bounds only) when the loop carries a Python
    float that its body rebinds to a narrower NumPy float (`acc = 0.3`, then `acc = acc * 3.0 +
    f32[i]`: NumPy's first iteration computes `acc * 3.0` in Python floats, a float32 carry would
    round 0.3 first), or a Ref its body rebinds (`positions`: those carry positions; the rest of
    the loop refills them: module docstring), or a NumPy value its body rebinds to another dtype
    (`widened`: `y = f32`, then `y = y * 0.3 + np.float64(b)`: NumPy computes the first iteration
    in float32, where a float64 carry from the start would not round it; a loop still changing it
    after that runs as Python, each iteration in the dtype NumPy's has)."""

    def __init__(self, positions=(), widened=False):
        super().__init__()
        self.positions = tuple(positions)
        self.widened = widened


def _npr_narrowed(carry, settled):
    """Whether a Python float or complex in `carry` is carried in a dtype that cannot hold it."""
    pairs = zip(jax.tree_util.tree_leaves(carry), jax.tree_util.tree_leaves(settled))
    return any(type(v) in (float, complex) and not _npr_weak_value(s)
               and np.promote_types(s.dtype, type(v)) != s.dtype for v, s in pairs)


def _npr_check_narrowed(leaves, outs, settled, peel):
    """A NumPy value a loop carries that a trip rebinds to a dtype the carry does not keep (`i =
    pairs[0, 1]`, int64, then `i = parent[i]`, int32: NumPy's i is int32 after a trip, int64 after
    none; `s = np.float64(0.1)`, then `s = y32[k]`): the carry holds the two promoted (int64), so the
    trips after the first would compute in it and the loop leave it, silently (a raw carry TypeError
    where the loop's trip count was data). With a static trip count and no `break` (`peel`) the first
    trip runs on its own (_NprPeelFirst) and the loop carries the new dtype; else NPR128: the dtype
    after the loop depends on the data."""
    for g, o, s in zip(leaves, outs, settled):
        if not hasattr(g, "dtype") or type(g) in (bool, int, float, complex) or _npr_weak_value(g) \
                or _npr_weak_value(o) or np.dtype(o.dtype) == np.dtype(s.dtype):
            continue
        if peel:
            raise _NprPeelFirst()
        old, new = np.dtype(g.dtype).name, np.dtype(o.dtype).name
        raise NprUnsupported("NPR128", f"a NumPy {old} value the loop carries is rebound to {new} in it (`i = "
                             f"parent[i]` after `i = pairs[0, 1]`), and the loop's trip count depends on array "
                             f"data: NumPy's name is {old} after no trip and {new} after one",
                             hint=f"make it {new} before the loop (`i = parent.dtype.type(pairs[0, 1])`), or "
                             f"{old} in it (`i = np.{old}(parent[i])`)")


class _NprRebindPython(Exception):
    """A refilled loop found the rebinding not exact as a refill (`reason`): npr_for runs the
    rest of the loop as Python (static bounds)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class _NprDetach(Exception):
    """A loop whose trip count is data rebinds the carried Refs at `positions`: npr_for runs it
    as _npr_for_refilled (module docstring)."""

    def __init__(self, positions):
        super().__init__()
        self.positions = tuple(positions)


_NPR_TRACED_REBIND = ("a loop whose trip count depends on array data rebinds a name "
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
                raise NprUnsupported("NPR011", "a loop whose trip count depends on data rebinds a "
                                     "Python number to an array that the function writes")
            raise _NprPeelFirst()
        if not refill:
            rebound.append(i)
            continue
        why = _npr_refill_blocker(i, ref, items, before)
        if why is not None:
            if not static:
                raise NprUnsupported("NPR011", f"{_NPR_TRACED_REBIND} ({why})")
            raise _NprRebindPython(why)
        ref[...] = npr_load(items[i])  # same shape and dtype (checked): the buffer it binds, copied
        out[i] = ref
    if rebound:
        raise _NprPeelFirst(rebound) if static else _NprDetach(rebound)
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
    the body bound becomes a Ref of its own for the refilled loop: nothing else holds it). A
    link the first iteration made to such a Ref cannot follow the name past the refills (the
    name may be the caller's array for some trips and not later): checked, _npr_ran_once."""
    items = list(carry) if isinstance(carry, tuple) else [carry]
    stack = _npr_state.get("rebind_scopes") or ()
    if stack and stack[-1].trace is _npr_current_trace():
        refilled = {id(items[i]) for i in positions}
        for link in [k for k in stack[-1].links if id(k[1]) in refilled]:
            stack[-1].links.remove(link)
            _npr_ran_once(link[2])
    for i in positions:
        v = items[i]
        if isinstance(v, (jax.Array, np.ndarray)) and not isinstance(v, jax.Ref):
            items[i] = jax.new_ref(jnp.asarray(v))
    return tuple(items) if isinstance(carry, tuple) else items[0]


def _npr_first_then_refill(fns, state, positions):
    """(the state with a loop-owned Ref at each rebound position, finish, the positions that
    held a caller's buffer: {position: that Ref}). `finish(first, items, out, before)`: the body's new items `out`
    (given `items`) with each rebound position refilled, the caller's buffer given the loop
    Ref's contents first where `first` (traced) holds. Refused (NPR011) when a name other than
    the rebound one sees a caller's buffer (the body would read it before the first iteration
    wrote it)."""
    if not all(_npr_is_ref(state[i]) or isinstance(state[i], (jax.Array, np.ndarray)) for i in positions):
        raise NprUnsupported("NPR011", f"{_NPR_TRACED_REBIND} (a name unbound before the loop)")  # npr_unset, NprMaybe
    callers = {i: state[i] for i in positions if _npr_is_ref(state[i])}
    others = [v for j, v in enumerate(state) if j not in callers]
    seen = {id(r) for r in _npr_reachable_refs(fns, others)}
    for c in callers.values():
        if isinstance(c, NprView) or id(c) in seen:
            raise NprUnsupported("NPR011", f"{_NPR_TRACED_REBIND}, and another name sees that array")
    fresh = list(state)
    for i in positions:
        fresh[i] = jax.new_ref(jnp.asarray(npr_load(state[i])))

    def finish(first, items, out, before):
        out = list(out)
        for i in positions:
            if i in callers:  # NumPy's first iteration wrote the caller's buffer, then rebound the name
                callers[i][...] = jnp.where(first, items[i][...], callers[i][...])
            if out[i] is items[i]:
                continue
            why = _npr_refill_blocker(i, items[i], out, before)
            if why is not None:
                raise NprUnsupported("NPR011", f"{_NPR_TRACED_REBIND} ({why})")
            items[i][...] = npr_load(out[i])
            out[i] = items[i]
        return out
    return tuple(fresh), finish, callers


def _npr_ran_once(none_ran):
    """The run-time check after a refilled loop on data whose rebinding cannot be linked
    (module docstring): `none_ran` traced. Refused when traced where no check can be made."""
    bounds = _npr_state.get("bounds")
    if bounds is not None:
        _npr_record_check(bounds, jnp.asarray(none_ran, bool).reshape(()), None, NprUnsupported, (
            "NPR011", f"{_NPR_TRACED_REBIND}; this call's loop ran no iteration, so the name is still the caller's "
            "array, which np2ref's translation does not follow",))
    elif not _npr_state.get("aside"):  # (a probe's trace is not the program)
        raise NprUnsupported("NPR011", f"{_NPR_TRACED_REBIND}; where the loop runs no iteration the name is still "
                             "the caller's array, which np2ref follows only when no other name may see it and "
                             "the function does not return it, and no run-time check can refuse that call here "
                             "(`.pure`, jax.vmap, `bounds=\"unchecked\"`)")


class _NprRebindScope:
    """Where a linked rebinding (module docstring) is settled: a function's call (its frame) or
    a refilled loop's trip, traced in `trace`; `shared`: the ids of Refs two of its arguments
    (or carried values) reach, which another name sees."""

    def __init__(self, values):
        self.trace, self.links, seen, self.shared = _npr_current_trace(), [], set(), set()
        for v in values:
            ids = {id(r) for r in _npr_reachable_refs([], [v])}
            self.shared |= ids & seen
            seen |= ids


@contextlib.contextmanager
def npr_rebind_scope(values=()):
    """Around a function's call or a loop trip: the rebindings linked in it, settled by
    _npr_settle_links; dropped unsettled when it raises (a trace given up)."""
    stack = _npr_state.setdefault("rebind_scopes", [])
    scope = _NprRebindScope(values)
    stack.append(scope)
    try:
        yield scope
    finally:
        stack.remove(scope)


def _npr_link(caller, ref, none_ran, sole):
    """After a loop on data that rebound the name holding the Ref `caller` to `ref`: linked in
    the innermost scope when `sole` and that scope is being traced, else _npr_ran_once."""
    stack = _npr_state.get("rebind_scopes") or ()
    scope = stack[-1] if stack else None
    if sole and scope is not None and scope.trace is _npr_current_trace() and id(caller) not in scope.shared:
        scope.links.append((caller, ref, none_ran))
    else:
        _npr_ran_once(none_ran)


def _npr_settle_links(scope, outputs=()):
    """The scope's links settled, the latest first (a later loop's caller is an earlier loop's
    Ref): the caller's buffer takes its Ref's contents where that loop ran no trip. A Ref that
    `outputs` (what leaves the scope) reach cannot be followed past it: _npr_ran_once."""
    out = {id(r) for r in _npr_reachable_refs([], list(outputs))}
    for caller, ref, none_ran in reversed(scope.links):
        if id(ref) in out:
            _npr_ran_once(none_ran)
        else:
            caller[...] = jnp.where(none_ran, ref[...], caller[...])
    scope.links.clear()


def _npr_trip(run, then, refilled):
    """One trip of a lax `for` loop, `then(run())`, in a scope of its own: a refilled loop's
    links settled before `then` refills its Refs, any other's after (`then` raises where the
    trip rebound a Ref that the loop carries, and the loop is traced again another way)."""
    with npr_rebind_scope() as scope:
        new = run()
        if refilled:
            _npr_settle_links(scope)
        out = then(new)
        _npr_settle_links(scope, [out])
        return out


def _npr_for_refilled(rng, body, carry, positions, stop, unroll, npr_for, sole=()):
    """npr_for of a loop whose trip count is data and whose body rebinds the carried Refs at
    `positions` (module docstring); npr_for passed in by its caller, loops.py, the floor above.
    `sole`: the positions whose name no other name may share storage with (the analysis)."""
    tupled = isinstance(carry, tuple)
    items = carry if tupled else (carry,)
    fresh, finish, callers = _npr_first_then_refill([body], items, positions)

    def refilled(i, c):
        s = list(c) if tupled else [c]
        before = {id(r) for r in _npr_reachable_refs([body], s)}
        new = _npr_scoped(lambda: body(i, c), s)
        out = finish(i == rng.start, s, new if tupled else (new,), before)
        return tuple(out) if tupled else out[0]
    refilled._npr_refilled = True
    out = npr_for(rng, refilled, fresh if tupled else fresh[0], stop=stop, unroll=unroll, peel=False)
    none_ran = rng.stop <= rng.start if int(rng.step) > 0 else rng.stop >= rng.start
    for i, caller in callers.items():
        _npr_link(caller, out[i] if tupled else out, none_ran, i in sole)
    return out


def _npr_scoped(run, values):
    """run() (a refilled loop's trip over `values`), the rebindings linked in it settled at its
    end, before the loop refills its Refs with what the trip bound."""
    with npr_rebind_scope(values) as scope:
        new = run()
        _npr_settle_links(scope)
        return new


def _npr_rebound_in(body, state, pack):
    """The positions of `state` (a while loop's) that one run of the body rebinds from a Ref
    (not one holding a Python number) to another object, or from a value to a Ref; traced
    aside (jax.eval_shape, no run-time checks, Python containers restored)."""
    # probed even when no item is a Ref yet: `U = 1.0 * Unew; U[m] = 0` binds a Ref to a name
    # that held a plain array (a parameter never written in place) — a Ref in the loop's state
    if getattr(body, "_npr_refilled", False):
        return ()
    found = []

    def probe():
        out = pack(body(*state))
        found.extend(i for i, (o, v) in enumerate(zip(out, state))
                     if (_npr_is_ref(v) and o is not v and _npr_np_weak_kind(npr_load(v)) is None)
                     or (_npr_is_ref(o) and not _npr_is_ref(v)))
        return 0
    kept = _npr_containers([body, state])
    with _npr_no_checks():
        jax.eval_shape(probe)
    _npr_changed(kept)
    return tuple(found)


def _npr_while_refilled(test, body, state, positions, pack, npr_while, sole=()):
    """npr_while's state after a `while` on data whose body rebinds the Refs at `positions`: the
    loop on loop-owned Refs (module docstring), a flag carried for the first iteration; npr_while
    passed in by its caller, branches.py, the floor above. `sole`: as _npr_for_refilled's."""
    fresh, finish, callers = _npr_first_then_refill([test, body], state, positions)

    def refilled(*s):
        items = list(s[:-1])
        before = {id(r) for r in _npr_reachable_refs([body], items)}
        return (*finish(s[-1], items, _npr_scoped(lambda: pack(body(*items)), items), before), jnp.zeros((), bool))
    refilled._npr_refilled = True
    final = npr_while(lambda *s: test(*s[:-1]), refilled, *fresh, jnp.ones((), bool))
    for i, caller in callers.items():
        _npr_link(caller, final[i], final[-1], i in sole)
    return tuple(final[:-1])


