"""Python's builtin max()/min() of several operands on values that may be traced (npr_max,
npr_min): a fold of jnp.where on Python's own comparison, and the kinds of its result. Python
returns one operand, so where they differ in type (an int and a float, a NumPy scalar and a
Python number) the result's type depends on the data: refused (NPR128) where it can show
(analysis/pick_uses.py says where the result goes), checked when the program runs, or followed
(a float64 result that may be a Python float is noted: promotion._npr_mark_either). One rule for
a float32 pick of Python floats: returned, NumPy's result itself as the data picks
(_npr_pick_returned); read otherwise, checked when it runs that the data picks the float32."""

import weakref

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .bounds import _npr_check_run
from .carried_kinds import _npr_noted_elsewhere, _npr_python_flag
from .casts import _npr_weak
from .compat import _npr_current_trace, _npr_Tracer, _npr_traced, _npr_weak_astype
from .core import _npr_py_like, _npr_state, _npr_traced_any, NprUnsupported
from .promotion import _npr_binop, _npr_either_chosen, _npr_either_kind, _npr_mark_either
from .truth import _npr_scalar_operand


def _npr_pick(builtin, better, args, use):
    """Python's max/min: the first operand that no later one beats (`v > best` replaces best),
    so NaN and signed-zero ties come out as Python's; on traced data, a fold of jnp.where on that
    same comparison."""
    if len(args) == 1:
        (seq,) = args
        if isinstance(seq, _npr_Tracer) and np.ndim(seq) == 1:
            if seq.shape[0] == 0:
                raise ValueError(f"{builtin.__name__}() iterable argument is empty")
            best, _ = lax.scan(lambda b, v: (jnp.where(better(v, b), v, b), None), seq[0], seq[1:])
            return best
        if isinstance(seq, _npr_Tracer):
            args = tuple(seq)  # rows: each compared as Python would (ValueError when bigger than 1)
        else:
            args = tuple(seq)
            if not args:
                return builtin(args)
    if not _npr_traced_any(args):
        return builtin(*args) if len(args) > 1 else builtin(args)
    best, picked = _npr_scalar_operand(args[0]), jnp.asarray(_npr_pick_python(args[0]))
    for v in args[1:]:  # (`picked`: whether the operand picked is a Python number; one a loop or
        v = _npr_scalar_operand(v)  # branch carried as either, as its flag says: carried_kinds.py)
        beats = better(v, best)
        best, picked = jnp.where(beats, v, best), jnp.where(beats, _npr_pick_python(v), picked)
    verdict = _npr_check_pick(builtin.__name__, args, best, *use, better=better)
    if verdict == "returned":
        return _npr_picks(args, _npr_pick_returned(builtin.__name__, args, better))
    if verdict == "strong":
        args = tuple(v for v in args if hasattr(v, "dtype") and not _npr_weak(v))  # (what it may be)
    chosen = _npr_pick_chosen(args, picked)
    if chosen is not None and use[0] in ("typed", "returned"):
        _npr_pick_held(builtin.__name__, args, best)
    if _npr_either_pick(args, best, mixed=True) or chosen is not None and use[0] != "value":
        _npr_mark_either(best, chosen)  # (a 'value' pick's reads in arithmetic: npr_picked)
    return _npr_picks(args, best, chosen)


def _npr_pick_python(v):
    """Whether operand `v` is a Python number: a value a loop or branch carried as either, by its flag."""
    return True if _npr_py_like(v) else _npr_python_flag(v)


def _npr_pick_held(name, values, best):
    """A Python number the data may pick, returned or kept as it is, is NumPy's result itself, which
    the fold holds only where its dtype does (`max(k32[0], 2 ** 40)` wrapped to 0): NPR128 where it
    may not (a traced one: a wider dtype than the fold's)."""
    dt = np.dtype(best.dtype)
    for v in values:
        if not _npr_py_like(v) or dt.kind not in "iuf":
            continue
        if isinstance(v, jax.Array):
            held = np.dtype(v.dtype).itemsize <= dt.itemsize
        elif dt.kind in "iu":  # (one beyond the range on the far side is never picked: compared exactly)
            held = (v >= int(np.iinfo(dt).min) or name == "max") and (v <= int(np.iinfo(dt).max) or name == "min")
        else:
            with np.errstate(all="ignore"):
                held = float(dt.type(v)) == v or v != v
        if not held:
            number = "a Python number" if isinstance(v, jax.Array) else f"the Python number {v!r}"
            raise NprUnsupported("NPR128", f"{name}() of {number} and a NumPy {dt.name} on array data, its result {_NPR_PICK_USES['typed']}: where "
                                 f"the data picks the Python number NumPy's result is that number, which {dt.name} "
                                 f"does not hold", hint=f"make both operands NumPy's: `{name}(x[i], x.dtype.type(v))`")


def _npr_pick_chosen(values, picked):
    """A pick of Python numbers and NumPy scalars of one kind (`min(dt, x[2])`, `min(len(x),
    i64[0])`) is NumPy's Python number or NumPy's scalar as the data picks: (`picked`, True), the
    predicate under which the call returns Python's type where the fold is returned, noted as
    either (promotion._npr_mark_either; `_npr_noted` keeps it through `* 2`); else None."""
    python = [_npr_py_like(v) for v in values]
    maybe = [p or _npr_either_chosen(v) is not None for p, v in zip(python, values)]
    if any(maybe) and not all(python) and len({_npr_pick_kind(v) for v in values}) == 1:
        return picked, True
    return None


def npr_max(*args, use="typed", against=None, into=None):
    """Python's builtin `max(a, b, ...)` / `max(iterable)` on values that may be traced; `use`,
    `against` and `into`: where the result goes (_npr_check_pick)."""
    return _npr_pick(max, lambda v, best: _npr_binop(">", v, best), args, (use, against, into))


def npr_min(*args, use="typed", against=None, into=None):
    """Python's builtin `min(a, b, ...)` / `min(iterable)` on values that may be traced."""
    return _npr_pick(min, lambda v, best: _npr_binop("<", v, best), args, (use, against, into))


# ------------------------------------------------------------- max()/min() of values of two kinds
_NPR_NARROW = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.complex64))


def _npr_check_pick(name, values, best, use, against, into, better=None):
    """Python's max()/min() return one of their operands, so where they differ in type the
    result's type depends on the data; np2ref's fold `best` promotes them all (NPR128 where that
    can show). `use` (analysis/pick_uses.py) is where the result goes: 'value' (stored into an
    array, compared, float()'d: only its value counts; read in arithmetic after the pick, checked
    there: npr_picked), 'arith' (an operand of arithmetic), 'noted' (of arithmetic of Python's
    operators alone, which promotion's note on the fold checks) or 'typed'.
    - two strong dtypes, one float16/float32/complex64 (int64 with float32: NumPy's int64 or
      float32, JAX's float32 value): refused for every use;
    - an int and a float (`max(x[0], 2.5)` on int64 data): refused unless the use is 'value'
      and each integer is exact in the promoted float (a Python int within 2**53, int32 data), or
      the result is only stored, into arrays of that float dtype (`into`: `a[i] = max(k[i], 0.5)`
      on float64 `a`; NumPy's comparisons of int64 with a float are float64's too, and its
      store rounds the int as the fold does);
    - a Python number and a NumPy value of one kind (`y8 * min(x[0], 3)`: NumPy's int8 * 3 or
      int8 * np.int64): refused in arithmetic, where the Python number's weakness decides the dtype,
      unless the NumPy value is float64 (int64, complex128; or of an integer dtype with Python
      ints in its range) and the arithmetic Python's operators alone ('noted': the fold noted,
      _npr_either_pick, each operator checks it), or `against` (the arithmetic it flows into, on
      stand-ins: `x * min(x[0], 2)`) has one dtype whichever operand is picked, np2ref's fold's,
      or the NumPy value is a float16/float32/complex64 (`max(abs(x32[i]), level * decay)`): then checked when the program runs that the
      data never picks the Python number (_npr_check_strong_picked), so the result is NumPy's
      scalar, as the fold (so too where such a result is returned or passed on: a Python float
      picked is another value than its float32). An operand that is itself such a pick's result
      carried on (promotion's `either` note: `m2 = m * 2`) counts as a Python number."""
    strong = {np.dtype(v.dtype) for v in values if hasattr(v, "dtype") and not _npr_weak(v)}
    if len(strong) > 1 and strong & _NPR_NARROW:
        raise NprUnsupported("NPR128", f"{name}() of values of different types "
                             f"({', '.join(sorted(d.name for d in strong))}) on array data: the type "
                             f"of its result would depend on which one the data picks")
    kinds = {_npr_pick_kind(v) for v in values}
    mixed = strong and any(_npr_weak(v) or not hasattr(v, "dtype") or _npr_either_kind(v) for v in values)
    if use == "noted":  # (Python's operators alone: the note on the fold follows a float64 one there)
        if _npr_either_pick(values, best):
            return
        use = "arith"
    if use == "arith" and (len(kinds) > 1 or mixed):
        if _npr_flows_alike(values, best, against):
            return  # (`total += max(0, s - k)`, `x * min(x[0], 2)`: NumPy's sum is one dtype whichever is picked)
        if _npr_check_strong_picked(name, values, strong, kinds, better):
            return "strong"  # (the result is one of the NumPy operands, or the run fails)
        raise _npr_pick_refusal(name, kinds, strong)
    if len(kinds) > 1 and use != "value":
        raise _npr_pick_refusal(name, kinds, strong, _NPR_PICK_USES[use])
    if use in ("typed", "returned") and mixed and strong <= _NPR_NARROW:  # (`return max(1.0, y32[0])`:
        if use == "returned" and len(kinds) == len(strong) == 1 and _npr_returned_here():  # NumPy's 0.1 a
            return "returned"  # Python float, a float32's not: returned as the data picks, _npr_pick_returned)
        if _npr_check_strong_picked(name, values, strong, kinds, better):
            return "strong"
        raise _npr_pick_refusal(name, kinds, strong, _NPR_PICK_USES[use])
    if len(kinds) > 1 and (promoted := np.dtype(jnp.result_type(*values))).kind in "fc" \
            and not _npr_stored_as(into, promoted):  # (bool with int: exact)
        bits = np.finfo(promoted).nmant + 1
        for v in values:
            if _npr_pick_kind(v) in ("bool", "int") and not _npr_int_exact(v, bits):
                raise NprUnsupported("NPR128", f"{name}() of int and float values on array data: the int is "
                                     f"compared and stored as {promoted.name}, which holds integers exactly only "
                                     f"to 2**{bits}", hint=f"make both operands floats: `{name}(float(x[i]), 2.5)`")


def _npr_check_strong_picked(name, values, strong, kinds, better):
    """A pick of a float16/float32/complex64 NumPy value and Python numbers of its kind whose
    arithmetic could not be shown alike: checked when the program runs that the data picks a
    NumPy operand (the fold's own value and dtype then: NumPy's), NPR128 where it picks a Python
    number, which NumPy would go on computing in float64. False where that does not apply, or
    nothing checks at run time (`bounds="unchecked"`)."""
    if better is None or len(kinds) != 1 or len(strong) != 1 or not strong <= _NPR_NARROW \
            or _npr_state.get("bounds") is None:
        return False
    python = [not hasattr(v, "dtype") or _npr_weak(v) for v in values]
    best, weak = values[0], jnp.asarray(python[0])
    for v, w in zip(values[1:], python[1:]):
        taken = better(v, best)
        best, weak = jnp.where(taken, v, best), jnp.where(taken, w, weak)
    _npr_check_numpys_picked(name, weak, sorted(strong)[0])
    return True


def _npr_check_numpys_picked(name, weak, narrow):
    """Checked when the program runs that `weak` (the data picked a Python number) is False."""
    _npr_check_run(weak, lambda e: e, NprUnsupported,
                   ("NPR128", f"{name}() of a NumPy {narrow.name} and a Python number on array data: "
                              f"the data picked the Python number, which NumPy goes on computing with in "
                              f"float64 where np2ref's {narrow.name} does not"))


# ------------------------------------------------ a float32 pick of Python floats, returned as NumPy's
def _npr_returned_here():
    """The pick is traced in the called function's own trace (no loop's or branch's: its flag can
    reach the result), in its own body (a helper's result is its caller's to read: `r = f(x); return
    r, r * 2.0`), with float64 at hand (x64: the Python float held exactly)."""
    trace = _npr_current_trace()
    return trace is not None and trace is _npr_state.get("top_trace") and not _npr_state.get("inlined") \
        and jnp.zeros((), np.float64).dtype == np.float64


def _npr_pick_returned(name, values, better):
    """`return min(y32[0], 0.1)`: NumPy's result is the Python float 0.1 itself or np.float32, as
    the data picks. Folded exactly in float64 with NumPy's comparisons (a Python float against a
    float32 compared in float32, two Python floats in float64) and a flag (was a Python number
    picked?); the fold returned is the float32 one, and the call's result takes the float64 value
    and the flag where it returns it as it is (_npr_returned_picks), else the float32 one is
    checked when the program runs, as where it is not returned (the data must pick the float32)."""
    narrow = next(np.dtype(v.dtype) for v in values if hasattr(v, "dtype") and not _npr_weak(v))
    wide = np.dtype(np.float64)
    values = [_npr_scalar_operand(v) for v in values]
    python = [not hasattr(v, "dtype") or _npr_weak(v) for v in values]
    best, weak = jnp.asarray(values[0], wide), jnp.asarray(python[0])
    for v, w in zip(values[1:], python[1:]):
        taken = jnp.where(weak, better(v, _npr_weak_astype(best, wide)), better(v, best.astype(narrow)))
        best, weak = jnp.where(taken, jnp.asarray(v, wide), best), jnp.where(taken, w, weak)
    fold = best.astype(narrow)
    _npr_state.setdefault("returned_picks", []).append((fold, best, weak, narrow, name))
    return fold


def _npr_returned_picks(result):
    """`result` with each float32 pick of Python floats that it holds as a leaf (_npr_pick_returned)
    its float64 value, noted to be the Python float where the flag says the data picked it and
    NumPy's float32 scalar else (result_shape._chosen); each such pick not returned is checked when
    the program runs to pick the float32 (NPR128 at once where nothing checks: .pure, unchecked)."""
    picks = _npr_state.pop("returned_picks", ())
    if not picks:
        return result
    leaves, tree = jax.tree_util.tree_flatten(result)
    found = {id(fold): (fold, value, weak, narrow) for fold, value, weak, narrow, _ in picks}
    for i, leaf in enumerate(leaves):
        fold, value, weak, narrow = found.get(id(leaf), (None,) * 4)
        if fold is leaf:
            leaves[i] = _npr_mark_either(value, (weak, True, narrow))
    returned = {id(leaf) for leaf in leaves}
    for fold, value, weak, narrow, name in picks:
        if id(value) not in returned:
            if _npr_state.get("bounds") is None:
                raise _npr_pick_refusal(name, {"float"}, {narrow}, _NPR_PICK_USES["typed"])
            _npr_check_numpys_picked(name, weak, narrow)
    return jax.tree_util.tree_unflatten(tree, leaves)


def _npr_either_pick(values, best, mixed=False):
    """A traced pick of NumPy values of Python's own dtype for their kind (float64, int64,
    complex128), or of one integer dtype (int16), and Python numbers of that kind (or such picks'
    results): NumPy's result is a NumPy scalar or a Python number as the data picks, of one value
    (a Python int within the integer dtype's range: checked, _npr_ints_within). Noted
    (promotion._npr_mark_either), an operator meeting it with a dtype for which the two promote
    differently is refused (`m2 = m * 2; y32 * m2`), and one on an int16 checked not to wrap.
    `mixed`: an int and a float too (`m = max(x32[0], 2.5)`, np.int32 or the Python float, the fold
    a weakly typed float64): what arithmetic on it gives, once shown alike (`m * 2.0`), is NumPy's
    float64 or a Python float, as noted (not its own uses, which its `against=` levels check)."""
    kinds = {_npr_pick_kind(v) for v in values}
    if not isinstance(best, jax.Array) or best.ndim:
        return False
    d = np.dtype(best.dtype)
    if mixed and kinds == {"int", "float"} and d == np.dtype(np.float64):  # (np.int32 or a Python float:
        return any(hasattr(v, "dtype") and not _npr_weak(v) for v in values)  # its arithmetic's result either)
    if len(kinds) != 1 or _npr_weak(best):
        return False
    if d != np.asarray({"int": 0, "float": 0.0, "complex": 0j}.get(*kinds, None)).dtype \
            and not (kinds == {"int"} and d.kind in "iu"):
        return False
    python = [v for v in values if not hasattr(v, "dtype") or _npr_weak(v)]
    return (python or any(_npr_either_kind(v) for v in values)) and _npr_ints_within(python, d)


def _npr_ints_within(python, d):
    """The Python ints `python` (traced ones weakly typed) are within `d`'s range: known ones now
    (False where one is not: the pick is not noted), traced ones checked when the program runs."""
    if d.itemsize >= 8 and d.kind == "i" or d.kind not in "iu":
        return True
    lo, hi = int(np.iinfo(d).min), int(np.iinfo(d).max)
    for v in python:
        if not _npr_traced(v):
            if not lo <= int(v) <= hi:
                return False
            continue
        _npr_check_run(v, lambda e: (e < lo) | (e > hi), NprUnsupported,
                       ("NPR128", f"max()/min() of a NumPy {d.name} and a Python int beyond its range on array data"))
    return True


def _npr_stored_as(into, dtype):
    """Every array of `into` (the arrays a pick is stored into, its only use) is of `dtype`."""
    return bool(into) and all(hasattr(a, "dtype") and np.dtype(a.dtype) == dtype for a in into)


def _npr_pick_refusal(name, kinds, strong, where="an operand of arithmetic"):
    if len(kinds) > 1:
        return NprUnsupported("NPR128", f"{name}() of {' and '.join(sorted(kinds))} values on array data, its result "
                              f"{where}: Python returns one of them, so whether its result is an int or "
                              f"a float depends on which one the data picks",
                              hint=f"make both operands one kind: `{name}(x[i], 2)` or `{name}(float(x[i]), 2.5)`")
    return NprUnsupported("NPR128", f"{name}() of a Python number and a NumPy {sorted(strong)[0].name} on array "
                          f"data, its result {where}: Python returns one of them, and NumPy's "
                          f"result dtype differs by which one the data picks (a Python number is weak)",
                          hint=f"make both operands NumPy's: `{name}(x[i], x.dtype.type(3))`, or store the "
                               f"result into an array first")


def _npr_flows_alike(values, best, levels):
    """The arithmetic the pick's result flows into (`levels`: each a function of a stand-in of
    the level below, analysis/pick_uses.py) has at each level one result dtype whichever operand
    is picked, NumPy 2's promotion with Python numbers weak, and it is the dtype np2ref's fold
    `best` has there: each operation the same then, and so the value. A Python number result is
    taken as its 64-bit dtype (np2ref's model of Python numbers on array data), except where the
    levels are cut (npr_cut: the arithmetic goes on with operands they could not stand in for,
    and a Python number's weakness decides there)."""
    chains = levels if levels and isinstance(levels[0], tuple) else (levels,)  # (several: a tuple of each's)
    try:
        return all(_npr_stand_ins_alike(tuple(npr_like(v) for v in values), npr_like(best), chain) for chain in chains)
    except TypeError:
        return False


def _npr_stand_ins_alike(candidates, folded, levels):
    """Each level's dtype the same for every candidate as for the fold. A level the stand-ins
    cannot evaluate (`h * (B4 @ k)`: 0-d stand-ins have no matrix product) tells nothing, not a
    mismatch: the levels are cut below it (the operands' weakness counts as well as their dtype
    there; alike there, the rest computes alike whatever it is)."""
    if not levels:
        return False
    with np.errstate(all="ignore"):
        for level in levels:
            try:
                above = level(folded), [level(c) for c in candidates]
            except (TypeError, ValueError, ArithmeticError):
                return all(_npr_flow_type(npr_cut(c)) == _npr_flow_type(npr_cut(folded)) for c in candidates)
            folded, candidates = above
            if any(_npr_flow_type(c) != _npr_flow_type(folded) for c in candidates):
                return False
    return True


class _NprCut:
    def __init__(self, value):
        self.value = value


def npr_cut(value):
    """The last level of a pick's arithmetic where it is cut (analysis/pick_uses.py): its
    weakness counts as well as its dtype."""
    return _NprCut(value)


def _npr_flow_type(r):
    if isinstance(r, _NprCut):
        return np.result_type(r.value), not hasattr(r.value, "dtype")
    return np.result_type(r)


def npr_like(v):
    """A stand-in for `v` in NumPy 2's promotion: a 0-d array of its dtype (strong: an array, a
    NumPy scalar, a Ref), or a Python number of its kind (weak: a Python number, a traced one);
    TypeError for anything else (a list)."""
    if hasattr(v, "dtype") and not _npr_weak(v):
        return np.ones((), np.dtype(v.dtype))
    if not hasattr(v, "dtype") and not isinstance(v, (bool, int, float, complex)):
        raise TypeError(type(v).__name__)
    return {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1j}[_npr_kind(v)]


# The stand-ins of each traced pick's operands and fold, by the fold's id while it lives:
# npr_picked reads them where the result is read in arithmetic
_NPR_PICKED: dict = {}


def _npr_picks(values, best, chosen=None):
    """Keep the stand-ins of a traced pick's operands for npr_picked, and `chosen`
    (_npr_pick_chosen); `best`."""
    try:
        entry = (tuple(npr_like(v) for v in values), npr_like(best))
    except TypeError:
        entry = None
    key = id(best)
    _NPR_PICKED[key] = (weakref.ref(best, lambda _: _NPR_PICKED.pop(key, None)), entry, chosen)
    return best


def npr_picked(v, *levels, noted=False):
    """`v`, a name bound to a max()/min() (`dt = min(dt, t_end - t)`) read in arithmetic after it
    (`u[1:] -= dt * (u[1:] - u[:-1])`): NPR128 where that arithmetic (`levels`, on stand-ins of its
    operands as they are here, bound after the pick too) has a dtype that differs by the operand
    the data picked. A concrete `v` is Python's own value. `noted`: that arithmetic is Python's
    operators alone, which the note on a pick of a NumPy scalar and Python numbers of one dtype
    (_npr_either_pick) checks as they run: nothing to check here then (not where the operands are
    of two kinds: np.int64 or a Python float, `m // 2`, whose note would say float64 only)."""
    if not isinstance(v, _npr_Tracer):
        return v
    found = _NPR_PICKED.get(id(v))
    if found is None or found[0]() is not v or found[1] is None:
        raise NprUnsupported("NPR128", "max()/min() on array data, its result an operand of arithmetic after "
                             "the statement that picks it: the operands it was picked from are not known here")
    values, folded = found[1]
    if noted and _npr_either_kind(v) and len({_npr_pick_kind(c) for c in values}) == 1:
        return v
    if not _npr_stand_ins_alike(values, folded, levels):
        raise _npr_pick_refusal("max/min", {_npr_pick_kind(c) for c in values},
                                {np.dtype(c.dtype) for c in values if isinstance(c, np.ndarray)} or {np.dtype(float)})
    if found[2] is not None:  # `-m`, `m * 2` returned: Python's type where the data picked it, as a
        return _npr_mark_either(jnp.array(v, copy=True), found[2])  # copy (m's own compares are values)
    return v


def npr_either(v):
    """A read of a name bound to arithmetic on a max()/min() whose result may be a NumPy scalar or
    a Python number (analysis/pick_uses.py: `h = h * max(0.2, f)`, read again on the next trip of
    the loop or after a branch that rebinds it): its traced value noted again as either
    (promotion._npr_mark_either), a note the loop's or branch's carry does not keep."""
    if isinstance(v, _npr_Tracer) and not _npr_weak(v) and _npr_either_kind(v) is None and _npr_noted_elsewhere():
        _npr_mark_either(v)  # (only in a trace where some value was noted: a pick of one kind, none;
    return v  # not over a loop's own note, whose flag says which kind: carried_kinds.py)


_NPR_PICK_USES = {"typed": "returned, kept or passed on", "returned": "returned, kept or passed on",
                  "arith": "an operand of arithmetic"}


def _npr_int_exact(v, bits):
    """An integer operand that a float of `bits` significant bits holds exactly: by its value when
    known, by its dtype when traced (int32 in float64, int16 in float32). A traced Python int (weak:
    a counter carried by a loop) is checked when the program runs: beyond 2**bits Python compares
    and stores it exactly, the fold rounds it (NPR128 then)."""
    if isinstance(v, _npr_Tracer) or (hasattr(v, "dtype") and _npr_weak(v)):
        info = np.iinfo(v.dtype) if np.dtype(v.dtype).kind != "b" else None
        if info is None or max(-int(info.min), int(info.max)) <= 2 ** bits:
            return True
        if not _npr_weak(v):
            return False
        _npr_check_run(v, lambda e: (e > 2 ** bits) | (e < -2 ** bits), NprUnsupported,
                       ("NPR128", f"max()/min() of a Python int and a float on array data: the int is beyond "
                                  f"2**{bits}, which the float it is compared and stored as does not hold exactly"))
        return True
    return abs(int(v)) <= 2 ** bits


def _npr_kind(v):
    """NumPy's dtype kind of a value or of a Python number."""
    return np.dtype(v.dtype).kind if hasattr(v, "dtype") else np.asarray(v).dtype.kind


def _npr_pick_kind(v):
    """bool, int or float (complex) of a max()/min() operand, a Python number's or a NumPy value's."""
    kind = _npr_kind(v)
    return {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}.get(kind, kind)
