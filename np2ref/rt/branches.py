"""Branches on data: npr_if, npr_ifexp, npr_while, npr_assert, and the forms of `and`/`or` that
evaluate an operand only when needed (npr_andv, npr_and_then): lax.cond and lax.while_loop with
the refs the branches read closed over. Python's truth itself (npr_and/or/not, max/min/any/all)
is truth.py."""

import functools
from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_lane_record, _npr_record_check, npr_bounds_ok
from .carried_kinds import npr_kinds_if, npr_kinds_while
from .compat import _npr_Tracer, _npr_weak_astype
from .core import _npr_state, _npr_typing_pass, npr_load, NprError, NprUnsupported
from .early_exit import _npr_if_returning, _npr_ifexp_describe, _npr_ifexp_type
from .histories import npr_while_histories
from .promotion import _npr_carried_dtype, _npr_mark_either, _npr_weak_value
from .np_dtypes import _npr_np_kinds0_settled
from .python_loops import _npr_python_effects, _npr_python_loop_reason
from .raises import _npr_raising
from .rebinds import _npr_check_narrowed, _npr_rebound_in, _npr_while_refilled, _NprPeelFirst, _NprRebindPython
from .refs import (
    _npr_batched_control, _npr_check_index_carry, _npr_lift_refs, _npr_placeholder,
    _npr_append_bufs, _npr_reachable_refs, _npr_reverse_mode, _npr_unpack)
from .unbound import _npr_any_maybe, _npr_if_boxed, _npr_while_boxed, npr_unbound, npr_unset
from .views import NprView
from .truth import _NPR_ASSERT_HINT, _npr_assert_message, _NPR_AMBIGUOUS, _NprStepMessage, _npr_concrete_bool, _npr_truth


def npr_bound(get, track=False):
    """The value `get()` reads, or npr_unset where the name has none yet: an `if` in a loop
    that runs as Python, assigning a name read after it (bound from the second iteration on).
    `track`: a read may see it unbound: npr_unbound (unbound.py) instead."""
    try:
        return get()
    except NameError:  # UnboundLocalError and a closure's unset free variable too
        return npr_unbound if track else npr_unset


def npr_ifexp(pred, then_fn, else_fn):
    """Python's `then if pred else orelse`, the operands as functions: only the chosen one is
    evaluated. A concrete predicate is Python's own; a traced one becomes lax.cond (npr_if),
    when both operands are values of one type (see _npr_ifexp_type)."""
    concrete = _npr_concrete_bool(pred)
    if concrete is not None:
        return then_fn() if concrete else else_fn()
    return _npr_traced_ifexp(pred, then_fn, else_fn)


def npr_andv(a, b_fn):
    """Python's `a and b` as a value (b as a function, evaluated only when a is true)."""
    concrete = _npr_concrete_bool(a)
    if concrete is not None:
        return b_fn() if concrete else a
    return _npr_traced_ifexp(a, b_fn, lambda: a)


def npr_orv(a, b_fn):
    """Python's `a or b` as a value (b as a function, evaluated only when a is false)."""
    concrete = _npr_concrete_bool(a)
    if concrete is not None:
        return a if concrete else b_fn()
    return _npr_traced_ifexp(a, lambda: a, b_fn)


def npr_and_then(a, b_fn):
    """`a and b` in a condition (only its truth matters), b evaluated only when a is true: a
    traced a becomes lax.cond on the truth of b."""
    concrete = _npr_concrete_bool(a)
    if concrete is not None:
        return b_fn() if concrete else a
    return _npr_traced_ifexp(a, lambda: _npr_truth(b_fn()), lambda: jnp.zeros((), bool))


def npr_or_else(a, b_fn):
    """`a or b` in a condition, b evaluated only when a is false."""
    concrete = _npr_concrete_bool(a)
    if concrete is not None:
        return a if concrete else b_fn()
    return _npr_traced_ifexp(a, lambda: jnp.ones((), bool), lambda: _npr_truth(b_fn()))


def _npr_traced_ifexp(pred, then_fn, else_fn):
    """lax.cond (through npr_if, which lifts the refs the operands read) when both operands have
    one shape and dtype. A Python number and a NumPy value of the same dtype give the NumPy type
    (as an `if` statement does); other differences (an int and a float, float32 and float64) are
    refused NPR128: NumPy's result type would depend on which operand the data picks."""
    pred = jnp.asarray(npr_load(pred))
    if pred.size != 1:
        raise ValueError(_NPR_AMBIGUOUS)
    pred = (pred if pred.dtype == bool else pred != 0).reshape(())
    seen = _NprIfexpTypes()

    def branch(k, fn):
        def run(_):
            v = fn()
            kind = _npr_ifexp_type(v)
            setattr(seen, f"t{k}", kind)
            other = getattr(seen, f"t{1 - k}")
            if other is not None and (other[0] != kind[0] or other[1] != kind[1]):
                raise NprUnsupported(
                    "NPR128", f"the two values of a conditional expression on array data "
                    f"differ in type ({_npr_ifexp_describe(seen.t0)} and "
                    f"{_npr_ifexp_describe(seen.t1)}): NumPy's result type would depend on the data")
            return v
        return run
    out = npr_if(pred, branch(0, then_fn), branch(1, else_fn), npr_unset)
    if seen.t0[2] and seen.t1[2]:  # both Python numbers: a Python number again
        out = _npr_weak_astype(out, seen.t0[1])
    elif seen.t0[2] != seen.t1[2]:  # NumPy's scalar or a Python number: refused where that shows
        _npr_mark_either(out, (pred, seen.t0[2]))
    return out


class _NprIfexpTypes:
    """The operand types a conditional expression's branches gave when traced (not a container
    the Python-effects check of npr_if looks into)."""
    __slots__ = ("t0", "t1")

    def __init__(self):
        self.t0 = self.t1 = None


def npr_if(pred, then_fn, else_fn, *values, returns=()):
    """`if pred:` with the branches as functions of the values they assign (returned again).
    A concrete predicate runs one branch in Python, exactly as the original; a traced one
    becomes lax.cond, with refs closed over so writes happen in place. `returns`: the positions
    of values that are a function's return value (frontend/returns.py; early_exit.py)."""
    else_fn = else_fn or (lambda *v: v[0] if len(v) == 1 else (v if v else None))
    concrete = _npr_concrete_bool(pred)
    if concrete is not None:
        return then_fn(*values) if concrete else else_fn(*values)
    # (a 0-d array carried or made: its result may be a 0-d array or a scalar, np_dtypes.py)
    return _npr_np_kinds0_settled(values, lambda: _npr_traced_if_of(pred, then_fn, else_fn, values, returns))


def _npr_traced_if_of(pred, then_fn, else_fn, values, returns):
    then_fn, else_fn = _npr_raising(then_fn, values), _npr_raising(else_fn, values)  # a `raise` in one: a check
    if returns:
        return _npr_if_returning(pred, then_fn, else_fn, values, returns, npr_if)
    if _npr_any_maybe(values):  # a name it may leave unbound: its flag goes through (unbound.py)
        return _npr_if_boxed(pred, then_fn, else_fn, values, npr_if)
    with _npr_python_effects([then_fn, else_fn, values], "a branch on array data"), _npr_maybe_untaken(True), _npr_batched_control([pred]):
        return npr_kinds_if(pred, then_fn, else_fn, values, _npr_traced_if)  # (carried_kinds.py)


def _npr_traced_if(pred, then_fn, else_fn, values):
    lifted = any(getattr(f, "_npr_lifted", False) for f in (then_fn, else_fn))
    refs = _npr_reachable_refs([then_fn, else_fn], [*values, *(() if lifted else _npr_append_bufs())])
    # in a vectorised loop's lanes, the branches' check record is lifted too (bounds.py), once
    lane = _npr_lane_record() is not None and not lifted
    if refs or lane:  # refs become operands and results of the cond (vmap cannot batch a cond with effects)
        if any(v is npr_unset for v in values):  # typed first: the lifted branches are jax.jit's
            values = _npr_unset_typed(then_fn, else_fn, values)
        return _npr_lift_refs(refs, values, (then_fn, else_fn),
                              lambda branches, v: npr_if(pred, *branches, *v))
    pred = jnp.asarray(npr_load(pred))
    if pred.shape != ():
        if pred.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        pred = pred.reshape(())
    if not values:
        lax.cond(pred, lambda: (then_fn(), None)[1], lambda: (else_fn(), None)[1])
        return None
    single = len(values) == 1
    pack = (lambda r: (r,)) if single else (lambda r: tuple(r))
    outs, kept = _npr_branch_types(then_fn, else_fn, values, pack)
    init = [_npr_if_start(v, a, b, k0, k1) for v, a, b, k0, k1 in zip(values, *outs, *kept)]

    def run(fn):
        def branch(*v):
            return tuple(_npr_items(r, lambda x, i=i: x, _npr_cast_like, i)
                         for r, i in zip(pack(fn(*v)), init))
        return branch

    result = lax.cond(pred, run(then_fn), run(else_fn), *init)
    return result[0] if single else result


def _npr_branch_types(then_fn, else_fn, values, pack):
    """The types each branch gives the values, and per branch which values it gives back as it
    got them (it does not assign the name). A name without a value yet is handed over as
    npr_unset, as _npr_settle's first pass does: an inner `if` that binds it types it (`if x[i]
    < 0: k = i` gives an int, not the float placeholder); not to the branches _npr_lift_refs
    made (a jax.jit of arrays), which an outer branch typed so already, nor where a branch then
    fails (it reads the name: the float placeholder, as before)."""
    try:
        return _npr_branch_shapes(then_fn, else_fn, values, pack, True)
    except NprError:
        raise  # a refusal (NPR127 from a branch's own error...) stands: tracing again would only repeat it
    except Exception:
        if not any(v is npr_unset for v in values):
            raise
    return _npr_branch_shapes(then_fn, else_fn, values, pack, False)


def _npr_branch_shapes(then_fn, else_fn, values, pack, unset):
    outs, kept = [], []
    refs = [isinstance(v, (jax.Ref, NprView)) for v in values]  # (_npr_unset_typed: passed as such)
    lifted = any(getattr(f, "_npr_lifted", False) for f in (then_fn, else_fn))
    held = [(v is npr_unset and unset or r) and not lifted for v, r in zip(values, refs)]
    for fn in (then_fn, else_fn):
        same = []

        def shapes(*v, fn=fn, same=same):
            v = [u if h else a for a, u, h in zip(v, values, held)]
            r = pack(fn(*v))
            same[:] = [ri is vi for ri, vi in zip(r, v)]
            return [0 if f else _npr_items(ri, _npr_placeholder) for ri, f in zip(r, refs)]  # (None: NPR122)
        outs.append(jax.eval_shape(shapes, *[0 if f else _npr_items(v, _npr_placeholder) for v, f in zip(values, refs)]))
        kept.append(same)
    return outs, kept


def _npr_unset_typed(then_fn, else_fn, values):
    """`values` with each npr_unset that one branch binds to an array or number (not a tuple) as
    zeros of that type, before _npr_lift_refs makes the branches jax.jit's (whose outputs are
    new values: which branch left a name as it was no longer shows)."""
    pack = (lambda r: (r,)) if len(values) == 1 else (lambda r: tuple(r))
    outs, kept = _npr_branch_types(then_fn, else_fn, values, pack)
    return [_npr_if_start(v, a, b, k0, k1) if v is npr_unset and k0 != k1 and not isinstance(a, tuple)
            and not isinstance(b, tuple) else v for v, a, b, k0, k1 in zip(values, *outs, *kept)]


def _npr_if_start(v, a, b, kept_then, kept_else):
    """A carried value's initial state for lax.cond (`a`, `b`: the types the branches give it;
    kept_*: the branch gives it back as it got it)."""
    if v is npr_unset and kept_then != kept_else:
        # a name only one branch binds: its type is that branch's (the other leaves it
        # unbound, as NumPy would: a later read raises there), not the placeholder's
        a = b = b if kept_then else a
    if isinstance(a, tuple) or isinstance(b, tuple):  # a tuple (`return x, it + 1`), item by item
        items = (npr_unset,) * len(a) if v is npr_unset else v
        if not (isinstance(a, tuple) and isinstance(b, tuple) and isinstance(items, tuple)
                and len(a) == len(b) == len(items)):
            raise NprUnsupported("NPR122", "the branches of a data-dependent `if` give a "
                                 "value different structures")
        return tuple(_npr_if_init(u, x, y) for u, x, y in zip(items, a, b))
    return _npr_if_init(v, a, b)


def _npr_if_init(v, a, b):
    """A carried value's initial state for lax.cond, of the type both branches give it."""
    if a.shape != b.shape:
        raise NprUnsupported("NPR122", "the branches of a data-dependent `if` give a "
                             "value different shapes")
    seen = [a, b] if v is npr_unset else [v, a, b]
    dtype = _npr_carried_dtype(seen)
    out = jnp.zeros(a.shape, dtype) if v is npr_unset else jnp.asarray(v).astype(dtype)
    if a.shape == () and all(type(u) in (int, float, complex) or _npr_weak_value(u) for u in seen):
        return _npr_weak_astype(out, dtype)  # a Python number on every path: one after the `if`
    return out


def _npr_cast_like(x, like):
    """A branch's value as the cond carries it (`like`: the initial state): weakly typed where
    that is (a Python number on every path, _npr_if_init) and the value is."""
    if _npr_weak_value(like) and (type(x) in (int, float, complex) or _npr_weak_value(x)):
        return _npr_weak_astype(x, like.dtype)
    return jnp.asarray(x).astype(like.dtype)


def _npr_items(v, one, each=None, like=None):
    """`one(v)`, or for a tuple (a function's return value, `return x, it + 1`) a tuple of
    `one(item)` (`each(item, like_item)` when `like` is given: the cast to the initial state)."""
    if like is not None:
        if isinstance(like, tuple):
            if not isinstance(v, tuple) or len(v) != len(like):
                raise NprUnsupported("NPR122", "the branches of a data-dependent `if` give a "
                                     "value different structures")
            return tuple(each(x, j) for x, j in zip(v, like))
        return each(v, like)
    return tuple(one(x) for x in v) if isinstance(v, tuple) else one(v)


def _npr_settle(step, carry, may_skip=False, peel=False):
    """The loop's initial state, typed as one iteration leaves it: an int counter that becomes a float is
    widened (as NumPy's rebinding would), a name first assigned in the loop (`npr_unset`) starts as zeros
    of its type; a NumPy value rebound narrower peels a trip or is refused (rebinds._npr_check_narrowed).
    A value whose shape the body changes is refused (NPR130): one that grows, or (`may_skip`) any."""
    leaves, tree = jax.tree_util.tree_flatten(carry)
    unset = [leaf is npr_unset for leaf in leaves]
    state = [_npr_placeholder(leaf) for leaf in leaves]

    def once(*s, first):
        # the first pass hands the body npr_unset itself, so that a branch binding the name
        # types it (`if c: j = k` gives an int, not the float placeholder promoted with it)
        args = [npr_unset if first and u else a for a, u in zip(s, unset)]
        out = step(jax.tree_util.tree_unflatten(tree, args))
        if jax.tree_util.tree_structure(out) != tree:  # `m = None`, then `m = v` on array data
            raise NprUnsupported("NPR130", "a loop on array data changes what a value it carries is "
                                 "(None before the loop, a value after an iteration), so after the loop it "
                                 "would depend on whether the loop ran; give the name a value of its type "
                                 "before the loop (`m = -np.inf`, `m = x[0]`)")
        out = jax.tree_util.tree_leaves(out)
        _npr_check_index_carry(out)
        return [_npr_placeholder(o) if o is npr_unset else o for o in out]
    for n in range(len(leaves) + 2):  # `x2 = x1; x1 = f32[i]`: each pass types one more link
        out, again = _npr_typing_pass(functools.partial(once, first=n == 0), *state)
        _npr_shape_changes(state, out, unset, may_skip)
        new = [_npr_unset_zeros(o) if u else
               _npr_retyped(a, o.shape, _npr_carried_dtype([a, o, *([g] if n == 0 else [])]), o)
               for a, o, u, g in zip(state, out, unset, leaves)]
        unset = [False] * len(unset)
        if not again and all(a.dtype == b.dtype and a.shape == b.shape for a, b in zip(state, new)):
            break
        state = new
    _npr_check_narrowed(leaves, out, state, peel)
    return jax.tree_util.tree_unflatten(tree, state)


def _npr_widened(carry, settled):
    """(old dtype, new dtype) of each NumPy value in a loop's `carry` (not a Python number, whose
    type _npr_carried_dtype settles) that one iteration leaves in another dtype (`settled`)."""
    pairs = zip(jax.tree_util.tree_leaves(carry), jax.tree_util.tree_leaves(settled))
    return [(np.dtype(v.dtype), np.dtype(s.dtype)) for v, s in pairs
            if type(v) not in (bool, int, float, complex) and hasattr(v, "dtype") and not _npr_weak_value(v)
            and np.dtype(v.dtype) != np.dtype(s.dtype)]


def _npr_refuse_widened(changed):
    """NPR128 for a float or complex a loop whose trip count is data carries and changes the
    dtype of (`x = x * 0.3 + np.float64(b)` on float32 `x` in a `while` on data): NumPy computes
    the iterations before the change in the old dtype, and which iteration is the first is not
    known when the loop is compiled. (An integer widened, int32 to int64, keeps its values.)"""
    inexact = [(old, new) for old, new in changed if old.kind in "fc"]
    if inexact:
        old, new = inexact[0]
        raise NprUnsupported("NPR128", f"a {old} value the loop carries becomes {new} in it, and the "
                             f"loop's trip count depends on array data: NumPy computes the iterations "
                             f"before the change in {old}")


def _npr_unset_zeros(o):
    """The initial value of a name first bound in the loop, as one iteration leaves it (`o`, an
    aval): weakly typed where that is a Python number (a loop variable read after a `break`,
    `for k in range(n)`: NumPy's Python int, so `u16 += k` stays uint16 as NEP 50 has it)."""
    zeros = jnp.zeros(o.shape, o.dtype)
    return _npr_weak_astype(zeros, o.dtype) if o.shape == () and _npr_weak_value(o) else zeros


def _npr_retyped(a, shape, dtype, out=None):
    """`a` carried as (shape, dtype); unchanged when it already is, so that a Python number
    stays weakly typed and a later pass can still give it the NumPy dtype the loop assigns; one
    the body leaves a Python number of another type (`t = 0`, `t += dt`) stays a weak one."""
    if a.shape == shape and a.dtype == dtype:
        return a
    weak = shape == () and _npr_weak_value(a) and out is not None and _npr_weak_value(out)
    return _npr_weak_astype(a, dtype) if weak else jnp.broadcast_to(a, shape).astype(dtype)


def npr_while(test, body, *values, appends=(), first=None, sole=()):
    """`while test:`, the loop state as values (refs closed over): in Python while the test is
    concrete, then lax.while_loop (`appends`: rt/histories.py), the predicate computed at the end
    of each body and carried (a condition reading a ref the body writes reads it stale in JAX);
    `first`: the test's value for `values`, already made (a test that draws draws once); `sole`: rt/rebinds.py."""
    single, state = len(values) == 1, tuple(values)
    pack = (lambda r: (r,)) if single else (lambda r: tuple(r) if r is not None else ())
    pred = test(*state) if first is None else first
    while _npr_concrete_bool(pred) is not None:
        if not _npr_concrete_bool(pred):
            return _npr_unpack(state, single)
        state = pack(body(*state))
        pred = test(*state)
    if appends:  # (below: a 0-d array carried or made may end a 0-d array or a scalar, np_dtypes.py)
        return npr_while_histories(appends, test, body, state, npr_while, pred)
    return _npr_np_kinds0_settled(state, lambda: _npr_traced_while_of(test, body, state, pred, single, pack, sole))


def _npr_traced_while_of(test, body, state, pred, single, pack, sole=()):
    with _npr_python_effects([test, body, state],
                             "a `while` loop whose condition (or a `break` in it) depends on array data"), \
            _npr_maybe_untaken(True), _npr_batched_control([pred]):
        rebound = _npr_rebound_in(body, state, pack)
        if rebound:  # `y += v; y = y % L`, y written before: loop-owned Refs (rt/rebinds.py)
            return _npr_unpack(_npr_while_refilled(test, body, state, rebound, pack, npr_while, sole), single)
        if _npr_any_maybe(state):  # a name it may leave unbound: its flag is loop state (unbound.py)
            return _npr_while_boxed(test, body, state, pred, _npr_traced_while)
        return npr_kinds_while(test, body, state, pred, single, pack, _npr_traced_while)


def _npr_traced_while(test, body, state, pred, single, pack):
    refs = _npr_reachable_refs([test, body], state)
    if refs:  # refs become loop state (vmap cannot batch a while_loop with effects)
        if any(v is npr_unset for v in state):  # typed first (`return y, n` in the loop: y's
            # shape), as _npr_settle types them: the lifted body is a jax.jit of arrays
            settled = _npr_settle(lambda st: pack(body(*st)), state, may_skip=True)
            state = tuple(t if v is npr_unset else v for v, t in zip(state, settled))
        return _npr_lift_refs(refs, state, (test, body), lambda fns, v: npr_while(*fns, *v, first=pred), loop=True)
    if _npr_reverse_mode(state):
        raise NprUnsupported("NPR124", "a `while` loop whose condition depends on array "
                                  "data carries values being reverse-differentiated")
    settled = tuple(_npr_settle(lambda st: pack(body(*st)), state, may_skip=True))
    _npr_refuse_widened(_npr_widened(state, settled))
    state = settled

    def step(carry):  # stops at a failed index check too: clamped data might never end the loop
        new = pack(body(*carry[:-1]))
        # item by item: a carried tuple (`best = (i, i + 1)`) is cast leaf by leaf
        new = jax.tree_util.tree_map(lambda v, o: jnp.asarray(v).astype(o.dtype), new, tuple(carry[:-1]))
        return (*new, jnp.asarray(test(*new), bool).reshape(()) & npr_bounds_ok())

    final = lax.while_loop(lambda c: c[-1], step, (*state, jnp.asarray(pred, bool).reshape(()) & npr_bounds_ok()))
    return _npr_unpack(final[:-1], single)


class _npr_maybe_untaken:
    """Around tracing a body that may never run (a loop whose trip count, or a branch whose
    condition, is known only at run time): an error NumPy's rules raise in it (a cast
    `same_kind` forbids, a shape mismatch) would stop NumPy only if the body ran, so it becomes
    refusal NPR127 instead of an error the original does not raise."""

    def __init__(self, active):
        self.active = active

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if (self.active and kind is not None and issubclass(kind, (TypeError, ValueError, IndexError))
                and not type(exc).__module__.startswith("jax") and _npr_python_loop_reason(exc) is None):
            raise NprUnsupported("NPR127", f"code that runs only for some data raises "
                                      f"{kind.__name__} when traced: {exc}") from exc
        return False


def npr_assert(test, message=None):
    """`assert test, message()` (`message`: the message as a function, evaluated only when
    needed, as Python does; None without one). A concrete test is Python's assert. A traced one
    (array data) is checked when the program runs: the call raises AssertionError(message)
    after the program ran and before anything is written back (runtime checks, as for indices:
    `.pure` and bounds='unchecked' skip it). The rewrite keeps the `assert` statement around
    this call, so `python -O` drops it as it drops the original. Returns True."""
    ok = _npr_concrete_bool(test)  # a NumPy array of more than one element raises ValueError here
    if ok is not None:
        if not ok:
            raise AssertionError(message()) if message is not None else AssertionError()
        return True
    x = jnp.asarray(npr_load(test))
    if x.size != 1:
        bool(np.zeros(x.shape, bool))  # NumPy's ValueError for the truth of such an array
    args = () if message is None else (_npr_assert_message(message),)
    # a message (template, a traced int it formats) is formatted after the run
    args, value = args[0] if args and isinstance(args[0], _NprStepMessage) else (args, jnp.zeros((), jnp.int32))
    try:
        hash(args)
        text_only = not any(isinstance(a, (_npr_Tracer, jax.Array)) for a in args)
    except TypeError:
        text_only = False
    if not text_only:
        raise NprUnsupported("NPR030", "an assert on array data is checked when the program "
                                  "runs; its message must be a Python value known when it is traced "
                                  "(a string, not array data)", hint=_NPR_ASSERT_HINT)
    bounds = _npr_state.get("bounds")
    if bounds is not None:
        _npr_record_check(bounds, x.reshape(()) == 0, value, AssertionError, args)
    return True


def _npr_shape_changes(state, out, unset, may_skip):
    """NPR130 for a carried value whose shape one iteration changes (branches._npr_settle): one a
    broadcast cannot widen (`hist = np.append(hist, v)`), or, in a loop that may not run, any."""
    for a, o, u in zip(state, out, unset):
        if u or a.shape == o.shape:
            continue
        try:
            widens = np.broadcast_shapes(a.shape, o.shape) == o.shape
        except ValueError:
            widens = False
        if widens and not may_skip:
            continue
        why = ("after a loop that may not run, its shape would depend on whether it ran" if widens else
               "its shape changes from one iteration to the next, so after the loop it depends on how "
               "many times the loop ran")
        raise NprUnsupported("NPR130", f"a loop on array data changes the shape of a value it carries "
                             f"({a.dtype}{list(a.shape)} -> {o.dtype}{list(o.shape)}): {why}")


def _npr_check_widened(carry, settled, static, peeled):
    """A NumPy value the loop carries (not a Python number) that its body rebinds to another dtype
    (`y = y * 0.3 + np.float64(b)` on float32 `y`; `if i == k: y = y.astype(np.float64)`): NumPy
    computes the iterations before the change in the old dtype, a carry of the new one from the
    start would not round them. With a static trip count the first iteration runs on its own
    (_NprPeelFirst), and a loop that still changes it after that runs as Python; a float that
    changes in a loop whose trip count is data is refused (NPR128, branches._npr_refuse_widened)."""
    changed = _npr_widened(carry, settled)
    if changed and static:
        if peeled:
            old, new = changed[0]
            raise _NprRebindPython(f"a value it carries changes from {old} to {new} in the loop")
        raise _NprPeelFirst(widened=True)
    _npr_refuse_widened(changed)
