"""Loops: npr_for, npr_range, npr_rotate (lax loops with Refs closed over)."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np
import contextlib
import threading

from .bounds import _npr_note_range
from .carried_kinds import npr_kinds_for  # (a Python number or a NumPy scalar, by a flag)
from .branches import _npr_check_widened, _npr_maybe_untaken, _npr_settle
from .picks import _npr_either_pick, _npr_picks, npr_max, npr_min
from .budget import npr_budget_watch
from .compat import _npr_discharge_state, _npr_Tracer, _npr_weak_astype
from .core import npr_load, NprUnsupported
from .early_exit import _npr_break_flag, _npr_fori_loop, _npr_join_refs
from .store_order import _npr_loop_touching
from .np_dtypes import _npr_np_kinds0_settled
from .promotion import _npr_mark_either, _npr_weak_value
from .python_loops import (
    _npr_changed, _npr_container_kind, _npr_containers, _npr_python_for, _npr_python_items,
    _NPR_COUNTED_HINT, _NPR_PYTHON_LOOP_ERRORS, _npr_python_loop_reason)
from .rebinds import (
    _npr_check_rebound, _npr_for_refilled, _npr_narrowed, _npr_refillable, _NprDetach, _NprPeelFirst,
    _NprRebindPython, _npr_trip)
from .refs import (
    _npr_batched, _npr_batched_control, _npr_differentiated, _npr_discharging, _NPR_INDEX_CARRIED,
    _npr_index_leaves, _npr_reachable, _npr_reachable_refs, _npr_rebind, _npr_reverse_mode,
    _npr_tracing_batched)
from .stores import npr_at
from .unbound import _npr_any_maybe, _npr_for_boxed
from .views import _npr_is_ref, _npr_overlap, NprView
from .appends import _NPR_APPENDS_PYTHON, npr_append_for


# ---- loops -------------------------------------------------------------------------------
class NprRange:
    """`range(...)` whose bounds may be traced (read from arrays)."""

    def __init__(self, start, stop, step):
        if _npr_is_concrete(step) and int(step) == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step


def npr_range(*args):
    """Python's range(...) for npr_for, whose bounds may be traced values."""
    if len(args) == 1:
        return NprRange(0, args[0], 1)
    return NprRange(args[0], args[1], args[2] if len(args) == 3 else 1)


class NprItems:
    """What `for item in seq:` iterates, for npr_for: the rows of an array (a lax loop over
    their index), the index tuples of `np.ndindex(shape)`, a range's numbers; any other
    iterable (a list, a tuple, a dict) is iterated in Python as written (`python` is set)."""

    def __init__(self, seq, count=None, item=None):
        self.seq, self.python = seq, count is None
        if count is not None:
            self.range, self.item = NprRange(0, count, 1), item


def npr_items(seq):
    """`for x in seq:` as npr_for iterates it (NprItems)."""
    if isinstance(seq, range):
        return NprItems(seq, len(seq), lambda k: seq.start + k * seq.step)
    if isinstance(seq, NprItems):
        return seq
    if isinstance(seq, (np.ndarray, jax.Array, _npr_Tracer)) and np.ndim(seq) >= 1:
        return NprItems(seq, int(np.shape(seq)[0]), lambda k: seq[k] if _npr_is_concrete(k) else jnp.asarray(seq)[k])
    if isinstance(seq, (jax.Ref, NprView)):
        raise NprUnsupported("NPR204", "iterating over the rows of an array that is written is not "
                             "translated yet")
    return NprItems(seq)


def npr_item(seq, k):
    """`seq[k]` for the sequences zip and enumerate take: a range's k-th number also when k is
    traced (a range cannot be indexed with a traced value), and a NumPy array's row (a module's
    constant table, `zip(range(9), CX)`: NumPy cannot be indexed with a traced value)."""
    if isinstance(seq, range) and not _npr_is_concrete(k):
        return seq.start + k * seq.step
    if isinstance(seq, np.ndarray) and not _npr_is_concrete(k):
        return jnp.asarray(seq)[k]
    return seq[k]


def npr_int_max(*args, use="typed", against=None, into=None):
    """Python's `max(a, b, ...)` where an argument may be a traced loop index: Python's own on
    concrete values; on traced integers (all of one dtype, with Python ints) jnp.maximum, whose
    value is the one Python's max returns; anything else (floats, NaN: `max(S0 * u ** j - K,
    0.0)` with a traced S0) is npr_max, Python's max on traced values."""
    return _npr_int_fold(max, jnp.maximum, npr_max, args, (use, against, into))


def npr_int_min(*args, use="typed", against=None, into=None):
    """Python's `min(a, b, ...)` on a traced loop index (see npr_int_max)."""
    return _npr_int_fold(min, jnp.minimum, npr_min, args, (use, against, into))


def _npr_int_fold(python, lax_op, picked, args, use):
    traced = [a for a in args if isinstance(a, _npr_Tracer)]
    if not traced:
        return python(*args)
    if use[0] in ("arith", "noted"):  # (`y8 * max(k, 3)`: the Python int's weakness can show: npr_max checks)
        return picked(*args, use=use[0], against=use[1], into=use[2])
    dtypes = {jnp.result_type(a) for a in traced}
    ints = all((isinstance(a, int) and not isinstance(a, bool)) or isinstance(a, _npr_Tracer) for a in args)
    if not ints or len(dtypes) != 1 or not jnp.issubdtype(dtypes.pop(), jnp.integer) \
            or any(a.shape != () for a in traced):
        return picked(*args, use=use[0], against=use[1], into=use[2])
    out = args[0]
    for a in args[1:]:
        out = lax_op(out, a)
    if _npr_either_pick(args, out):
        _npr_mark_either(out)  # (np.int64 or a Python int, as the data picks: picks._npr_either_pick)
    return _npr_picks(args, out)  # (npr_picked: its reads in arithmetic)


def npr_ndindex(*shape):
    """`np.ndindex(*shape)` (static shape) for npr_for: the index tuples in NumPy's order (C
    order, last index fastest), Python ints when the loop runs in Python."""
    dims = tuple(int(d) for d in (shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape))

    def item(k):
        if _npr_is_concrete(k):
            return tuple(int(v) for v in np.unravel_index(int(k), dims)) if dims else ()
        out = []
        for d in reversed(dims):
            out.append(k % d)
            k = k // d
        return tuple(reversed(out))
    return NprItems(np.ndindex(*dims), int(np.prod(dims, dtype=np.int64)), item)


def _npr_is_concrete(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def npr_for(rng, body, *init, **options):
    """`for i in range(...)` (_npr_for_run); a 0-d array carried or made in it: its results may
    be 0-d arrays or scalars (np_dtypes._npr_np_kinds0_settled). Then `rng.after()`, once the
    whole loop is traced, where a floor above set it (draws.py: a loop's draws made in advance)."""
    after = getattr(rng, "__dict__", {}).pop("after", None)  # (once: npr_for may run its rest through npr_for)
    if not init:
        out = _npr_for_run(rng, body, **options)
    else:
        counted = rng.range if isinstance(rng, NprItems) and not rng.python else rng
        peel = _NprPeelFirst if isinstance(counted, NprRange) and all(
            _npr_is_concrete(v) for v in (counted.start, counted.stop, counted.step)) and len(
            range(int(counted.start), int(counted.stop), int(counted.step))) else None
        out = _npr_np_kinds0_settled(init, lambda trip: _npr_for_run(rng, trip, *init, **options), body, peel)
    _ = after is not None and after()
    return out


def _npr_for_run(rng, body, *init, python="", stop=None, unroll=False, peel=True, refill=False, appends=(),
                 lazy=(), widened=False, when=(), sole=()):
    """`for i in range(...)`: `body(i, carry) -> carry` (or `body(i)` without carried values)
    as a lax.fori_loop, so compile time does not grow with the trip count. Refs are closed
    over by the body. It runs as the plain Python loop it was, saying so (PythonLoopWarning),
    when the analysis says why (`python`: the body changes a Python list, say), or, with static
    bounds, when the body turns out to need the loop variable's value (it indexes a Python tuple
    with it, or slices with it: python_loops.py lists those errors) or changes a Python
    container after all. A failed or discarded lax trace leaves the containers as they were.
    `refill`: the loop after a first iteration that rebound a carried Ref (rt/rebinds.py; `sole`).
    `appends`: lists the body only appends to, once per trip (the reason `python` gives): with a
    static trip count, a lax loop that stacks the appended values (rt/appends.py); `lazy`: those
    of them whose rows are made only where code reads them; `when`: per list, the test of the `if`
    its append is under (None: every trip)."""
    has = bool(init)
    carry = init[0] if has else None
    if isinstance(rng, NprItems):  # `for x in seq:`: the body takes the item
        if rng.python:
            return _npr_python_items(rng.seq, body, carry, has, stop)
        item, rng = rng.item, rng.range
        inner = body
        body = (lambda k, c: inner(item(k), c)) if has else (lambda k: inner(item(k)))
    static = all(_npr_is_concrete(v) for v in (rng.start, rng.stop, rng.step))
    limits = (stop, unroll)
    if static and len(range(int(rng.start), int(rng.stop), int(rng.step))) == 0:
        return carry
    if appends and static and stop is None:
        out = npr_append_for(rng, body, init, has, appends, {"unroll": unroll}, lazy, npr_for, when)
        if out is not _NPR_APPENDS_PYTHON:
            return out
    if python and not static:
        raise NprUnsupported("NPR034", f"this loop must run as a Python loop ({python}), but its "
                                  f"trip count depends on array data", hint=_NPR_COUNTED_HINT)
    if has and static and not python and _npr_index_leaves(carry):  # (else NPR122: _npr_placeholder)
        python = _NPR_INDEX_CARRIED
    if python:
        return _npr_python_for(rng, body, carry, has, python, *limits)
    if has and peel and stop is None and static and _npr_holds_none(carry):
        # `m = None` before the loop, `m = v` in it: the first iteration binds the name, run as
        # Python runs it (traced once, its index a Python int); the loop then runs the rest
        k, step = int(rng.start), int(rng.step)
        return npr_for(NprRange(k + step, rng.stop, step), body, body(k, carry), unroll=unroll, peel=False)
    kept = _npr_containers([body, carry])
    try:
        if has and _npr_any_maybe(carry if isinstance(carry, tuple) else (carry,)):  # unbound.py
            out = _npr_for_boxed(lambda b, c: _npr_lax_for(rng, b, c, True, stop, refill), body, carry, static)
        else:
            out = npr_kinds_for(lambda b, c: _npr_lax_for(rng, b, c, has, stop, refill, widened), body, carry, static and stop is None)
    except _NprPeelFirst as exc:  # the first iteration as NumPy runs it: with the Python float,
        # or writing the caller's buffer before rebinding the name (rt/rebinds.py)
        _npr_changed(kept)
        k, step = int(rng.start), int(rng.step)
        first = body(k, carry)
        if exc.positions:
            first, refill = _npr_refillable(first, exc.positions), True
        return npr_for(NprRange(k + step, rng.stop, step), body, first, stop=stop, unroll=unroll, peel=peel,
                       refill=refill, widened=exc.widened)
    except _NprDetach as exc:  # the same with a trip count read from data (rt/rebinds.py)
        _npr_changed(kept)
        return _npr_for_refilled(rng, body, carry, exc.positions, stop, unroll, npr_for, sole)
    except _NprRebindPython as exc:
        _npr_changed(kept)
        return _npr_python_for(rng, body, carry, has, exc.reason, *limits)
    except _NPR_PYTHON_LOOP_ERRORS as exc:
        reason = _npr_python_loop_reason(exc) if static else None
        if reason is None:
            raise
        _npr_changed(kept)
        return _npr_python_for(rng, body, carry, has, reason, *limits)
    changed = _npr_changed(kept)
    if changed is None:
        return out
    reason = f"the body changes a {_npr_container_kind(changed)} that outlives an iteration"
    if not static:
        raise NprUnsupported("NPR034", f"{reason}, in a loop whose trip count depends on array data",
                             hint=_NPR_COUNTED_HINT)
    return _npr_python_for(rng, body, carry, has, reason, *limits)


NPR_SHORT_LOOP = 8  # a lax loop with a static trip count this short is unrolled by XLA ...
NPR_SHORT_NEST = 32  # ... while its body's copies, over the enclosing unrolled loops, stay this few
_npr_unrolling = threading.local()  # .copies: the product of the enclosing unrolled loops' trip counts


_npr_trips = threading.local()  # .mult: the original's Python trips one trace of the body stands
# for (the static lax loops around it, multiplied); .tally: npr_trips_recorded's list, or None


@contextlib.contextmanager
def _npr_times(local, attr, n):
    """While a body is traced: `local.attr`, a product over the bodies around it, times n."""
    outer = getattr(local, attr, 1)
    setattr(local, attr, outer * n)
    try:
        yield
    finally:
        setattr(local, attr, outer)


def _npr_trips_of(trips):
    """While a body standing for `trips` trips of the original's Python loop is traced."""
    return _npr_times(_npr_trips, "mult", trips)


def _npr_note_lanes(trips, eqns):
    """A loop made lanes (vectorise.py): NumPy runs its `trips` Python trips (times the
    enclosing loops'), each about `eqns` operations on scalars or rows, that the traced program
    shows once, batched. Noted for the route estimate (runtime/routes.py)."""
    tally = getattr(_npr_trips, "tally", None)
    if tally is not None:
        tally.append((getattr(_npr_trips, "mult", 1) * trips, eqns))


def _npr_drop_lanes(since):
    """Forget what the lanes that failed to trace noted (their loop is traced as a loop)."""
    tally = getattr(_npr_trips, "tally", None)
    if tally is not None:
        del tally[since:]


def _npr_tally_length():
    tally = getattr(_npr_trips, "tally", None)
    return 0 if tally is None else len(tally)


def _npr_holds_none(carry):
    return any(v is None for v in (carry if isinstance(carry, tuple) else (carry,)))


def _npr_short(trips):
    """Whether a lax loop with `trips` (static) iterations is unrolled (`lax.fori_loop(...,
    unroll=True)`): at most NPR_SHORT_LOOP of them and, with the enclosing unrolled loops, at
    most NPR_SHORT_NEST copies of the body, and (_npr_fori) when the body reaches no written
    array (a Ref): a loop over carried values and read-only arrays. The body is traced as for
    the rolled loop (a traced index: the same windows, masks and bounds checks, so the same
    values); XLA then sees straight-line code with constant indices, where a window
    `x[:, i:i + h]` is a static slice (a 3x3 convolution by shifted windows: 4.2 -> 2.0 ms).
    A body that stores into an array keeps the rolled loop, whose updates XLA makes in place
    and whose temporaries do not grow with the trip count (tests/examples/test_pipelining.py)."""
    return _npr_is_concrete(trips) and 0 < trips <= NPR_SHORT_LOOP and getattr(_npr_unrolling, "copies", 1) * trips <= NPR_SHORT_NEST


def _npr_unrolled(trips):
    """While the body of a loop unrolled `trips` times is traced: inner loops count its copies."""
    return _npr_times(_npr_unrolling, "copies", trips)


def _npr_lax_for(rng, body, carry, has, flag_at=None, refill=False, widened=False):
    start, stop, step = rng.start, rng.stop, rng.step
    if not _npr_is_concrete(step):
        raise NprUnsupported("NPR121", "a range step read from array data is not translated")
    step = int(step)
    span = stop - start
    trips = (span + step - 1) // step if step > 0 else (span + step + 1) // step
    trips = jnp.maximum(trips, 0) if not _npr_is_concrete(trips) else max(int(trips), 0)
    if not _npr_is_concrete(trips) and _npr_reverse_mode([body, carry]):
        # a fori_loop with traced bounds is a while_loop, which reverse mode cannot go through;
        # an enclosing loop with static bounds then runs as Python, making these bounds concrete
        raise NprUnsupported("NPR124", "a loop whose bounds depend on data (or on an "
                                  "enclosing compiled loop) cannot be reverse-differentiated")

    if step == 1 and not _npr_is_concrete(trips):  # the loop counts i itself: no k, no i = start + k
        dt = jnp.result_type(start, stop)
        bounds, index = (jnp.asarray(start, dt), jnp.asarray(stop, dt)), (lambda k: k)
    else:
        bounds, index = (0, trips), (lambda k: start + k * step)

    span = (int(start), int(start) + (int(trips) - 1) * step) if _npr_is_concrete(start) and \
        _npr_is_concrete(trips) else None

    def one(k, c):
        npr_budget_watch()  # the body's own trace: what it unrolls counts too (budget.py)
        i = _npr_python_int(index(k))
        if span is not None:  # the index checks need not check i itself (_npr_check_bounds)
            _npr_note_range(i, min(span), max(span))
        return body(i, c) if has else _npr_trip(lambda: body(i), lambda _: c, False)

    unroll = _npr_short(trips) and flag_at is None
    one._npr_body = body  # (what it stores into: store_order.py _npr_loop_touching)
    if not has:
        with _npr_body_traced(trips, unroll):
            _npr_fori(bounds, one, 0, unroll=unroll)
        return None
    fixed, carry = _npr_split_refs(carry)
    flag = None if flag_at is None else _npr_break_flag(fixed, flag_at)  # early_exit.py
    inner, static = one, _npr_is_concrete(trips)

    def one(k, c):  # refs among the carried names (a parameter that is an array) stay closed over
        joined = _npr_join_refs(fixed, c) if fixed else c
        before = {id(r) for r in _npr_reachable_refs([inner], [joined])} if refill and fixed else ()
        new = _npr_trip(lambda: inner(k, joined), lambda n: _npr_check_rebound(fixed, n, static, refill, before), refill)
        return _npr_split_refs(new)[1] if fixed else new
    one._npr_body = body
    with _npr_body_traced(trips, unroll):
        c0 = _npr_settle(lambda c: one(jnp.asarray(bounds[0]), c), carry, not static, flag_at is None and static)
        if flag_at is None and _npr_is_concrete(trips) and _npr_narrowed(carry, c0):
            raise _NprPeelFirst
        _npr_check_widened(carry, c0, flag_at is None and _npr_is_concrete(trips), widened)
        out = _npr_fori(bounds, one, c0, flag, unroll)
    return _npr_join_refs(fixed, out) if fixed else out


@contextlib.contextmanager
def _npr_body_traced(trips, unroll):
    """While a lax loop's body is traced: maybe never run (a traced trip count), its trip count
    batched or not, its copies (unrolled) and the original's trips it stands for counted."""
    static = _npr_is_concrete(trips)
    with _npr_maybe_untaken(not static), _npr_batched_control([trips]), _npr_unrolled(trips if unroll else 1), \
            _npr_trips_of(trips if static else 1):
        yield


def _npr_python_int(i):
    """The loop variable as `range` gives it: a Python int, weakly typed int64 in JAX (NEP 50:
    `u16 += i` stays uint16, `u8 + i` checks i against uint8), whatever dtype the loop counts
    in (a traced trip count or the early-exit while_loop count in a strong int64). Every use,
    in the body and after the loop (the carry _npr_settle types from it), sees the weak int.
    Without x64 (the float32 policy) that int is int32: an int64 there met JAX's own int32
    indices in a dynamic slice (lax.select's TypeError, found on the TPU lane)."""
    wide = np.dtype(jax.dtypes.canonicalize_dtype(np.int64))
    if _npr_weak_value(i) and i.dtype == wide:
        return i
    return _npr_weak_astype(i, wide)


def _npr_fori(bounds, one, c0, flag=None, unroll=False):
    """lax.fori_loop(*bounds, one, c0), the body closing over its refs. Under reverse-mode
    differentiation on JAX 0.10 the refs' values become loop state and the body runs
    state-discharged: JAX 0.10.2 transposes a scan whose body makes refs of its own wrongly
    (silently wrong gradients; fixed in 0.11)."""
    swap, split = _npr_split_views([one])
    if split:  # row views of one buffer become refs of their own for the loop (see below)
        one = _npr_rebind(one, swap, {})
        out = _npr_fori(bounds, one, c0, flag, unroll)
        for view, ref in split:
            npr_at(view)[...] = ref[...]
        return out
    refs = _npr_reachable_refs([one], [c0])
    if unroll and flag is None and not refs:  # a body reaching a written array stays rolled (_npr_short)
        return lax.fori_loop(*bounds, one, c0, unroll=True)
    if not refs:
        return _npr_fori_loop(bounds, one, c0, flag)
    discharge = _npr_discharge_state() is not None and _npr_differentiated([one, c0] + refs)
    # a trip count batched by vmap makes the loop a while_loop with a batched predicate, which
    # JAX 0.10 cannot batch with ref effects in its body: the refs' values become loop state
    batched = _npr_batched([one, c0] + refs)
    if not discharge and not (batched and not all(_npr_is_concrete(b) for b in bounds)):
        return _npr_fori_loop(bounds, _npr_loop_touching(one, refs), c0, flag, refs)

    @_npr_tracing_batched(batched)
    def pure_step(k, state):
        fresh = [jax.new_ref(v) for v in state[0]]
        c = _npr_rebind(one, {id(r): f for r, f in zip(refs, fresh)}, {})(k, state[1])
        return [f[...] for f in fresh], c

    pure_step._npr_lifted = True  # its closure holds the outer refs: not searched again
    step = _npr_discharging(pure_step, _npr_reverse_mode([one, c0] + refs)) if discharge else jax.jit(pure_step)
    values, out = lax.fori_loop(*bounds, step, ([r[...] for r in refs], c0))
    for r, v in zip(refs, values):
        r[...] = v
    return out


def _npr_split_views(fns):
    """({id(view): fresh ref}, [(view, fresh ref)]) for the views a loop body reaches that are
    two or more disjoint basic-index views of one buffer (`b = work[1]`, `d = work[3]`) whose
    buffer the body does not reach otherwise. Each gets a ref of its own for the loop, stored
    back through the view after it: exact, since no element is reachable through two of them,
    and XLA:CPU no longer copies the whole buffer when one iteration stores into two of its
    rows (thomas_tridiag: 7.7 ms a sweep at n = 2000, 0.05 ms with separate refs)."""
    leaves = list(_npr_reachable(fns, views=True))
    bare = {id(leaf) for leaf in leaves if isinstance(leaf, jax.Ref)}
    groups = {}
    for leaf in leaves:
        if isinstance(leaf, NprView):
            groups.setdefault(id(leaf.base), {})[id(leaf)] = leaf
    swap, split = {}, []
    for base, views in groups.items():
        views = list(views.values())
        if base in bare or len(views) < 2 or any(
                kind != 's' or arg.adv or arg.mask is not None for v in views for kind, arg in v.steps):
            continue
        if any(_npr_overlap(x, y) for i, x in enumerate(views) for y in views[i + 1:]):
            continue
        for v in views:
            swap[id(v)] = jax.new_ref(npr_load(v))
            split.append((v, swap[id(v)]))
    return swap, split


def _npr_split_refs(carry):
    """(refs by position, the carry without them): refs cannot be loop carries. A single
    carried value is position 0 of a one-element carry."""
    items = carry if isinstance(carry, tuple) else (carry,)
    fixed = {i: v for i, v in enumerate(items) if _npr_is_ref(v)}
    rest = tuple(v for i, v in enumerate(items) if i not in fixed)
    fixed["tuple"] = isinstance(carry, tuple)
    return (fixed if len(fixed) > 1 else {}), (rest if isinstance(carry, tuple) or len(fixed) > 1 else carry)


def npr_rotate(targets, values):
    """`a, b = b, a` on written arrays inside a lax loop: swap their contents (the names
    cannot be rebound per iteration). np2ref only emits it when no other name sees these
    buffers; shapes and dtypes must agree, as rebinding names never casts."""
    if not all(_npr_is_ref(t) for t in targets):  # a parameter given a Python number
        raise NprUnsupported("NPR120", "swapping a number with an array inside a loop is not translated")
    loaded = [npr_load(v) for v in values]
    for t, v in zip(targets, loaded):
        if tuple(t.shape) != tuple(v.shape) or t.dtype != v.dtype:
            raise NprUnsupported("NPR120", "swapping arrays of different shapes or dtypes "
                                      "inside a loop is not translated")
    for t, v in zip(targets, loaded):
        npr_at(t)[...] = v


def npr_rotated(rng, targets, values):
    """After a `range` loop that ran `targets = values` once per iteration as npr_rotate (a swap
    of contents) on buffers another name also sees (a parameter): the names rebound as NumPy's
    loop left them, each buffer holding its own contents again. Static trip counts only."""
    bounds = (rng.start, rng.stop, rng.step)
    if not all(_npr_is_concrete(v) for v in bounds):
        raise NprUnsupported("NPR120", "swapping arrays that another name sees, in a loop "
                                  "whose trip count is read from array data, is not translated")
    for i, a in enumerate(targets):
        if any(a is b or _npr_overlap(a, b) for b in targets[i + 1:]):
            raise NprUnsupported("NPR120", "swapping arrays that share memory inside a "
                                      "loop is not translated")
    where = {id(t): i for i, t in enumerate(targets)}
    source = [where[id(v)] for v in values]  # an iteration binds name i to name source[i]'s buffer
    bound, seen = list(range(len(targets))), []
    while bound not in seen:  # the permutation's powers, up to its period
        seen.append(bound)
        bound = [bound[j] for j in source]
    bound = seen[len(range(*map(int, bounds))) % len(seen)]  # name i -> buffer bound[i]
    if bound == seen[0]:
        return tuple(targets)
    loaded = [npr_load(t) for t in targets]  # name i's contents, held by targets[i]
    for i, v in enumerate(loaded):
        npr_at(targets[bound[i]])[...] = v
    return tuple(targets[b] for b in bound)


