"""A value a traced loop or branch leaves as a Python number or as a NumPy scalar, as the data
decides: `i = start; while parent[i] != i: i = parent[i]` leaves the Python int `start` where
the loop takes no trip and np.int32 after one; `k = 0; if x[0] > 0: k = x[1]` the Python 0 or
x's scalar. The traced carry holds one dtype (promotion._npr_carried_dtype), so which kind NumPy's
name holds is a flag carried beside it: True while it holds the Python number (a trip or a branch
that binds a NumPy scalar clears it, one that keeps the name keeps it). The result is noted
`either` with that flag as its predicate (promotion._npr_mark_either's `chosen`): returned, the
call gives Python's type where the flag says so (pyscalars._npr_python_leaves); meeting a dtype
for which the two kinds promote differently, promotion's checks refuse it (NPR128), as for a
max()/min() (picks.py). Inside a loop's body the carried value is noted the same way, with the
flag of the trip (its first trip sees the Python number). Followed where the carry's dtype gives
the Python number's arithmetic exactly: an integer dtype for a Python int (its wrap checked where
it meets arithmetic, casts._npr_check_int_exact), float64 for a Python int or float, complex128."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .bounds import _npr_check_run
from .compat import _npr_traced, _npr_weak_astype
from .core import _npr_above, _npr_state, npr_pyreturn, NprUnsupported
from .promotion import _npr_either_chosen, _npr_either_kind, _npr_weak_value

_NPR_KINDS = {"b": None, "i": int, "u": int, "f": float, "c": complex}
_NPR_TRUE, _NPR_FALSE = np.bool_(True), np.bool_(False)  # (a Python number's flag, a NumPy value's)


def _npr_python_kind(v):
    """int, float or complex where `v` is a Python number (or a traced one: weakly typed) or a
    value noted as one (`either`, with its predicate); else None (a bool, a NumPy value, an array)."""
    if type(v) in (int, float, complex):
        return type(v)
    if not isinstance(v, jax.Array) or v.ndim:
        return None
    if _npr_weak_value(v):
        return _NPR_KINDS.get(np.dtype(v.dtype).kind)
    return _npr_either_kind(v) if _npr_either_chosen(v) is not None else None


def _npr_python_flag(v, old=None, old_flag=None):
    """Whether `v` holds the Python number, as a traced bool: `old_flag` where v is `old` itself (a
    branch or trip that keeps the name), True for a Python number, the predicate of one noted
    either, False for a NumPy value."""
    if old is not None and v is old:
        return old_flag
    if type(v) in (int, float, complex) or isinstance(v, jax.Array) and v.ndim == 0 and _npr_weak_value(v):
        return _NPR_TRUE
    chosen = _npr_either_chosen(v)
    if chosen is not None:
        pred, on_true = chosen[:2]
        return jnp.asarray(pred, bool).reshape(()) == bool(on_true)
    return _NPR_FALSE


def _npr_kinds_note(v, kind, flag):
    """Note `v` (the carry) either: `kind`'s Python number where `flag`, else its NumPy scalar; only
    where its dtype computes as that Python number does (see the module's docstring)."""
    if not isinstance(v, jax.Array) or v.ndim or _npr_weak_value(v) or not _npr_traced(v):
        return v
    d = np.dtype(v.dtype)
    if d.kind in "iu" and kind is int or d == np.float64 and kind in (int, float) or d == np.complex128:
        either = _npr_state.setdefault("either", {})
        either[id(v)], either[("carried", id(v))] = (v, kind, flag, True), v  # (the second: _npr_noted_elsewhere)
    return v


def _npr_noted_elsewhere():
    """Whether a value of this trace is noted either by anything but a loop's or branch's flag (a
    max()/min(), a conditional expression): picks.npr_either notes names read again only then."""
    either = _npr_state.get("either") or {}
    return any(type(k) is int and either.get(("carried", k)) is not e[0] for k, e in either.items())


def _npr_kinds_strong(v):
    """A weakly typed 0-d value as its dtype's NumPy scalar (the same dtype)."""
    return lax.convert_element_type(v, v.dtype) if isinstance(v, jax.Array) and _npr_weak_value(v) else v


def _npr_kinds_tracked(values):
    """[(position, Python kind)] of the values that hold a Python number as the loop or branch starts."""
    return [(j, k) for j, v in enumerate(values) if (k := _npr_python_kind(v)) is not None]


def _npr_kinds_held(start, out):
    """A traced Python int carried in a narrower integer dtype: NumPy's value where the loop leaves
    it as it was, so checked to be within that dtype when the program runs (a known one is checked
    as the carry is typed, promotion._npr_carried_dtype)."""
    d = np.dtype(getattr(out, "dtype", object))
    if not (isinstance(start, jax.Array) and _npr_traced(start) and _npr_weak_value(start)) \
            or d.kind not in "iu" or np.dtype(start.dtype).kind not in "iu" or _npr_weak_value(out):
        return
    info, wide = np.iinfo(d), np.iinfo(start.dtype)
    lo, hi = int(info.min), int(info.max)
    if lo <= wide.min and hi >= wide.max:
        return
    _npr_check_run(start, lambda e: (e < lo) | (e > hi), NprUnsupported,
                   ("NPR128", f"a Python int a loop or branch on array data carries as {d.name} (a {d.name} "
                              f"value may replace it) is beyond {d.name}'s range"))


class _NprKindPaths:
    """What the first trace of each path (a loop's body, each branch) gave the tracked values: for
    each, whether it left the Python number it started with (kept it, or bound another), so that a
    value Python's on every path (`gap = 0; while ...: gap += 1`) is left as np2ref carried it
    before, with no flag. An object: python_loops' search for the containers a body changes does
    not look into it."""
    __slots__ = ("starts", "paths", "stale")

    def __init__(self, values, tracked):
        self.starts = [type(values[j]) in (int, float, complex) or _npr_weak_value(values[j]) for j, _ in tracked]
        self.paths, self.stale = {}, False

    def first(self, path, record, carried):
        """A path's first trace: its record; where some values a loop carries are Python's on every path
        and others not, the loop is typed once more (branches._npr_settle) to check the first ones."""
        self.paths[path] = record
        python = self.python()
        if carried and any(python) and not all(python):
            _npr_state["retype"] = True

    def check(self, path, out, values, tracked, python):
        """A later trace of a path, whose values not Python's on every path are noted with their flags:
        one taken for Python's on every path that the path leaves a NumPy value or a value noted either
        (`c = b * 2.0` with b NumPy's after `b = a`, `a = x[i]`: the first trace saw b weakly typed, as
        the Python number it starts as, and so c) is not, and the loop is typed once more with it
        flagged. `stale`: the trace used what a later look found wrong (_npr_kinds_out refuses)."""
        record = self.paths[path]
        for i, ((j, _), p) in enumerate(zip(tracked, python)):
            v = out[j]
            if p and v is not values[j] and not any(v is values[k] for k, _ in tracked) \
                    and _npr_python_flag(v) is not _NPR_TRUE:
                record[i] = False
        self.stale = self.python() != python
        if self.stale:
            _npr_state["retype"] = True

    def python(self):
        """Per tracked value, Python's on every path: each path kept it, bound a Python number, or
        bound another tracked value (`c = b; b = a`, a delay line) that is Python's on every path
        (a path that read b as the number it started as: b is NumPy's after `b = a`, `a = x[i]`)."""
        python = [s and bool(self.paths) for s in self.starts]
        changed = True
        while changed:  # (a fixpoint: a value bound to one that is not Python's on every path is not)
            changed = False
            for i in range(len(python)):
                ok = python[i] and all(p[i] is True or type(p[i]) is int and python[p[i]] for p in self.paths.values())
                changed, python[i] = changed or ok != python[i], ok
        return python


def _npr_kinds_flagged(fn, n, tracked, pack, seen, lead=0, carried=True):
    """fn(*values) -> values as a function of (*values, *flags) -> (*values, *flags), the values
    (a loop's carry, a branch's operands: new tracers) noted either with their flags; `lead`
    arguments before the values are fn's too (a `for` body's index). The path is known by a key of
    its own, not by fn: lifting a loop's Refs into its state (refs.py) traces copies of fn with new
    closures, each of which took itself for a first trace and kept a carry weakly typed, a Python
    number, where a trip had left NumPy's (np.float64(0.05) returned as 0.05: `t += dt` beside
    `u[1] -= dt`, shallow_water_rusanov's solve)."""
    path = object()

    def run(*state):
        given, state = state[:lead], state[lead:]
        values, flags = list(state[:n]), state[n:]
        first = path not in seen.paths
        python = [False] * len(tracked) if first else seen.python()
        for (j, kind), f, p in zip(tracked, flags, python):
            if not p:  # (a loop's carry may be weakly typed, a NumPy value after a trip: its flag says)
                values[j] = _npr_kinds_note(values[j] if first or not carried else
                                            _npr_kinds_strong(values[j]), kind, f)
        out = pack(fn(*given, *values))
        if first:
            seen.first(path, [_npr_kinds_path(out[j], values, j, tracked) for j, _ in tracked], carried)
        elif carried:
            seen.check(path, out, values, tracked, python)
        return (*out, *(jnp.asarray(True) if p else _npr_python_flag(out[j], values[j], f)
                         for (j, _), f, p in zip(tracked, flags, python)))
    return run


def _npr_kinds_path(v, values, j, tracked):
    """What a path's first trace left in tracked value j: True where it is values[j] or a Python
    number, the position (among `tracked`) of another tracked value it is, else False."""
    if v is values[j]:
        return True
    other = next((i for i, (k, _) in enumerate(tracked) if k != j and v is values[k]), None)
    return other if other is not None else _npr_python_flag(v) is _NPR_TRUE


def _npr_kinds_out(state, out, tracked, n, seen):
    """The values of a run with flags, each tracked one noted by its flag (not one Python's on
    every path: _NprKindPaths)."""
    values, flags = list(out[:n]), out[n:]
    if seen.stale:
        raise NprUnsupported("NPR128", "a value a loop on array data carries was traced as a Python number on "
                             "every path, and a later look found it computed from one NumPy's scalar replaces "
                             "(`c = b * 2.0` after `b = a; a = x[i]`): which kind NumPy's name holds is not followed "
                             "here", hint="make it NumPy's from the start: `c = x.dtype.type(0)`")
    for (j, kind), f, p in zip(tracked, flags, seen.python()):
        if p:
            values[j] = _npr_kinds_weak(values[j], kind)
        else:
            _npr_kinds_held(state[j], values[j])
            values[j] = _npr_kinds_note(_npr_kinds_strong(values[j]), kind, f)
    return values


def _npr_kinds_weak(v, kind):
    """A value Python's on every path (`it = 0; while ...: it += 1`), carried strongly typed: weakly
    typed again where its dtype is the Python number's own (int64, float64, complex128), so that
    type(), isinstance() and NumPy's promotion see the Python number NumPy's name holds (type(it)
    said int64), noted a Python number for the call's results (an item of a returned tuple, `p[1]` of
    `p = (0.0, 1.5)` a branch kept, came back np.float64). Another dtype (a Python int that became a
    float, a float32 carry) as it is."""
    if isinstance(v, jax.Array) and v.ndim == 0 and kind is not None and np.dtype(v.dtype) == np.dtype(kind):
        return npr_pyreturn(v if _npr_weak_value(v) else _npr_weak_astype(v, v.dtype), kind.__name__)
    return v


def npr_kinds_while(test, body, state, pred, single, pack, run):
    """`run(test, body, state, pred, single, pack)` (branches._npr_traced_while) with a flag carried
    beside each value that holds a Python number as the loop starts."""
    lifted = getattr(body, "_npr_lifted", False)
    if not lifted and not single and any(_npr_kinds_width(v) for v in state):
        gather, spread = _npr_kinds_items(state)
        out = npr_kinds_while(lambda *s: test(*gather(s)), lambda *s: spread(pack(body(*gather(s)))),
                              spread(state), pred, False, lambda r: tuple(r), run)
        return gather(out)
    tracked = [] if lifted else _npr_kinds_tracked(state)
    if not tracked:
        return run(test, body, state, pred, single, pack)
    n, seen = len(state), _NprKindPaths(state, tracked)
    flags = tuple(_npr_python_flag(state[j]) for j, _ in tracked)
    out = run(lambda *s: test(*s[:n]), _npr_kinds_flagged(body, n, tracked, pack, seen), (*state, *flags),
              pred, False, lambda r: tuple(r))
    values = _npr_kinds_out(state, out, tracked, n, seen)
    return values[0] if single else tuple(values)


def npr_kinds_if(pred, then_fn, else_fn, values, run):
    """`run(pred, then_fn, else_fn, values)` (branches._npr_traced_if) with the flags: each branch
    gives its own (a name it binds to a NumPy scalar: False). A tuple of numbers (`p = (0.0, 0.0)`,
    then `if x[0] > 0.5: p = (x[0], x[1])`) item by item, where both branches leave it one as wide."""
    lifted = any(getattr(f, "_npr_lifted", False) for f in (then_fn, else_fn))
    widths = [] if lifted else [_npr_kinds_width(v) for v in values]
    if any(w is not None for w in widths):
        try:
            return _npr_kinds_if_items(pred, then_fn, else_fn, values, run, widths)
        except _NprKindsWidth:
            pass  # a branch binds the name to another object: the tuple whole, as before
    tracked = [] if lifted else _npr_kinds_tracked(values)
    if not tracked:
        return run(pred, then_fn, else_fn, values)
    n, seen = len(values), _NprKindPaths(values, tracked)
    pack = (lambda r: (r,)) if n == 1 else (lambda r: tuple(r))
    flags = tuple(_npr_python_flag(values[j]) for j, _ in tracked)
    out = run(pred, _npr_kinds_flagged(then_fn, n, tracked, pack, seen, carried=False),
              _npr_kinds_flagged(else_fn, n, tracked, pack, seen, carried=False), (*values, *flags))
    out = _npr_kinds_out(values, out, tracked, n, seen)
    return out[0] if n == 1 else tuple(out)


class _NprKindsWidth(Exception):
    """A branch left a tuple of numbers as another object (not a tuple as wide)."""


def _npr_kinds_width(v):
    """The length of a tuple of numbers holding a Python number (tracked item by item), else None."""
    if type(v) is not tuple or not v or not any(_npr_python_kind(x) is not None for x in v):
        return None
    scalar = all(type(x) in (int, float, complex) or isinstance(x, (jax.Array, np.generic)) and np.ndim(x) == 0
                 for x in v)
    return len(v) if scalar else None


def _npr_kinds_spread(values, widths):
    out = []
    for v, w in zip(values, widths):
        if w is not None and (type(v) is not tuple or len(v) != w):
            raise _NprKindsWidth
        out.extend(v if w is not None else (v,))
    return out


def _npr_kinds_gather(flat, widths):
    out, i = [], 0
    for w in widths:
        out.append(flat[i] if w is None else tuple(flat[i:i + w]))
        i += 1 if w is None else w
    return out


def _npr_kinds_items(values):
    """(gather, spread) for a loop's carry holding a tuple of numbers (`p = (b * 2.0, b + 1.0)`, b a
    delay line's): spread, the carry with 0 in each such tuple's place and its items after the carry's
    values, each tracked with a flag of its own (as npr_kinds_if's items), every other value where it
    was (a `break` flag's and a rebound Ref's positions: loops.py, rebinds.py); gather, the carry again.
    A trip that leaves such a name another object than a tuple as wide: NPR122, as a branch's."""
    widths, n = [_npr_kinds_width(v) for v in values], len(values)

    def spread(vs):
        if len(vs) != n or any(w is not None and (type(v) is not tuple or len(v) != w) for v, w in zip(vs, widths)):
            raise NprUnsupported("NPR122", "a loop on array data gives a tuple it carries another structure")
        return (*(v if w is None else 0 for v, w in zip(vs, widths)),
                *(x for v, w in zip(vs, widths) if w is not None for x in v))

    def gather(flat):
        out, k = list(flat[:n]), n
        for i, w in enumerate(widths):
            if w is not None:
                out[i], k = tuple(flat[k:k + w]), k + w
        return tuple(out)
    return gather, spread


def _npr_kinds_if_items(pred, then_fn, else_fn, values, run, widths):
    """npr_kinds_if with each tuple of numbers spread into its items (a flag each)."""
    n = len(values)

    def spread(fn):
        def branch(*flat):
            out = fn(*_npr_kinds_gather(flat, widths))
            out = _npr_kinds_spread((out,) if n == 1 else tuple(out), widths)
            return out[0] if len(out) == 1 else tuple(out)
        return branch
    flat = _npr_kinds_spread(values, widths)
    out = npr_kinds_if(pred, spread(then_fn), spread(else_fn), tuple(flat), run)
    out = _npr_kinds_gather((out,) if len(flat) == 1 else tuple(out), widths)
    return out[0] if n == 1 else tuple(out)


def npr_kinds_for(run, body, carry, counted=False):
    """`run(body, carry)` (loops._npr_lax_for: `body(i, carry) -> carry`) with the flags appended to
    the carry (a tuple; a single value made one). Not where `counted` (a static trip count of one
    or more, no `break`) and every trip binds each a NumPy scalar: NumPy's after the loop (a flag,
    a carry of its own, kept rt/fission.py from moving a trip's work out of the loop)."""
    single = not isinstance(carry, tuple)
    values = (carry,) if single else carry
    lifted = getattr(body, "_npr_lifted", False)
    if not lifted and not single and any(_npr_kinds_width(v) for v in values):
        gather, spread = _npr_kinds_items(values)
        out = npr_kinds_for(run, lambda i, c: spread(tuple(body(i, gather(c)))), spread(values), counted)
        return gather(out)
    tracked = [] if lifted else _npr_kinds_tracked(values)
    if tracked and counted and _npr_kinds_numpy_after(body, values, tracked, single):
        tracked = []
    if not tracked:
        return run(body, carry)
    n, seen = len(values), _NprKindPaths(values, tracked)
    pack = (lambda r: (r,)) if single else (lambda r: tuple(r))
    flags = tuple(_npr_python_flag(values[j]) for j, _ in tracked)
    step = _npr_kinds_flagged(lambda i, *v: body(i, v[0] if single else tuple(v)), n, tracked, pack, seen, 1)

    def one(i, c):
        return step(i, *c)
    out = _npr_kinds_out(values, run(one, (*values, *flags)), tracked, n, seen)
    return out[0] if single else tuple(out)


def _npr_kinds_numpy_after(body, values, tracked, single):
    """Whether one trip of `body` binds each tracked value to a NumPy scalar on every path (traced
    once, abstractly: a trip that keeps or binds a Python number, or fails so, says no)."""
    seen = []

    def probe(i, *v):
        out = body(i, v[0] if single else tuple(v))
        out = (out,) if single else tuple(out)
        seen[:] = [out[j] is not v[j] and _npr_python_flag(out[j]) is _NPR_FALSE for j, _ in tracked]
        return out
    try:
        jax.eval_shape(probe, jax.ShapeDtypeStruct((), jnp.result_type(int), weak_type=True), *values)
    except Exception:
        return False
    return bool(seen) and all(seen)


def _npr_kinds_listed(items):
    """NPR128 where an item of a list np.array makes an array of is noted either (a Python number
    or a NumPy scalar, as the data decides: a loop's or branch's result here, a max()/min()'s) and
    np.array's dtype may differ between the two (np.int32 items with a Python int among them make
    int64): only a NumPy scalar of the Python number's own dtype (int64, float64, complex128) makes
    one dtype whichever it is."""
    for v in jax.tree_util.tree_leaves(items):
        kind = _npr_either_kind(v) if isinstance(v, jax.Array) else None
        if kind is not None and np.dtype(v.dtype) != np.dtype(kind):
            raise NprUnsupported(
                "NPR128", f"np.array() of a list holding a value a loop, branch or max()/min() on array data "
                f"leaves as a Python {kind.__name__} or as a NumPy {np.dtype(v.dtype).name}, as the data decides: "
                f"NumPy's array is {np.result_type(v.dtype, np.dtype(kind)).name} where one is the Python number, "
                f"{np.dtype(v.dtype).name} where none is", hint=f"give the dtype: `np.array(..., dtype=np.int64)`, "
                f"or make the items one kind: `{kind.__name__}(v)`")


def _npr_kinds_shown(v):
    """(Python kind, predicate, whether true gives the Python number) of a value noted either with a
    predicate (its type shows in type(), isinstance(), print of a container), else None."""
    if not isinstance(v, jax.Array):
        return None
    chosen = _npr_either_chosen(v)
    return None if chosen is None else (_npr_either_kind(v), *chosen[:2])


def _npr_either_both(a, b, out):
    """`p[0] + p[1]` of two floats (complex) noted either with predicates (a tuple's items a branch on
    data left): a Python float where both are, np.float64 where either is not (float64 either way; not
    ints, Python's do not wrap): (the predicate, True), else None (promotion's checks stand). Reached
    from promotion._npr_noted through core._npr_above."""
    kinds = [_npr_either_kind(v) if _npr_either_chosen(v) else None for v in (a, b)]
    if None in kinds or not isinstance(out, jax.Array) or out.ndim:
        return None
    kinds.append(_NPR_KINDS.get(np.dtype(out.dtype).kind))
    if any(k not in (float, complex) or np.dtype(v.dtype) != np.dtype(k) for k, v in zip(kinds, (a, b, out))):
        return None
    flags = [jnp.asarray(c[0], bool).reshape(()) == bool(c[1]) for c in map(_npr_either_chosen, (a, b))]
    return flags[0] & flags[1], True


_npr_above.either_both = _npr_either_both
