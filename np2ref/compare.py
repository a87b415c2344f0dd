"""Comparing NumPy results: values, dtypes and shapes, with tolerances by dtype.

`first_difference` says where two results differ; `worst_error` measures by how much;
`compare_outputs` compares a whole call (the return value and the final state of every array
argument) and says what carried information, so a caller can fail closed when nothing did.

Below both of its users: verify/ (np2ref.verify, which compiles with np2ref.compile) and
compiled/ (np2ref.compile's verify=True first call), so neither package imports the other's
back. np2ref.verify.compare re-exports it.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import types
import warnings

import numpy as np

RTOL = {np.dtype(np.float64): 1e-9, np.dtype(np.float32): 1e-4, np.dtype(np.float16): 1e-2,
        np.dtype(np.complex128): 1e-9, np.dtype(np.complex64): 1e-4}


_PY_SCALARS = (bool, int, float, complex)


def first_difference(expected, got, where: str = "result", rtol: float | None = None,
                     kinds: bool = True) -> str | None:
    """A description of the first difference between two results, or None when they agree.

    Exact in everything but a float's last bits: a container is the same type (tuple, list,
    dict with the same keys) holding agreeing items; a Python number is a Python number of the
    same type, a NumPy scalar one of the same type, an array an array (or the caller's
    jax.Array) of the same shape and dtype. Integers and booleans agree exactly; floats to a
    tolerance set by their dtype, or by `rtol` when given, with NaN equal to NaN and a zero's
    sign as NumPy's (-0.0 is not 0.0: `1 / z`, np.signbit, np.copysign tell them apart).
    `kinds=False` (a transform's result: `.pure`, jax.vmap's members, which hold arrays only)
    takes a Python number, a NumPy scalar and a 0-d array of its value alike."""
    if isinstance(expected, (tuple, list, dict)):
        return _container_difference(expected, got, where, rtol, kinds)
    kind = _kind_difference(expected, got, where) if kinds else None
    if kind:
        return kind
    if expected is None or isinstance(expected, str):
        return None if expected == got else f"{where}: expected {expected!r}, got {got!r}"
    e = np.asarray(expected)
    g = np.asarray(got)
    if e.shape != g.shape:
        return f"{where}: shape {g.shape}, expected {e.shape}"
    if isinstance(expected, (np.ndarray, np.generic)) and e.dtype != g.dtype:
        return f"{where}: dtype {g.dtype}, expected {e.dtype}"
    close = _close(e, g, rtol)
    if not np.all(close):
        bad = np.argwhere(~np.asarray(close))
        idx = tuple(int(i) for i in bad[0]) if bad.size else ()
        return f"{where}{list(idx) if idx else ''}: got {g[idx]!r}, expected {e[idx]!r}"
    return None


def _container_difference(expected, got, where: str, rtol, kinds=True) -> str | None:
    if type(got) is not type(expected):
        return f"{where}: expected a {type(expected).__name__}, got a {type(got).__name__}"
    if isinstance(expected, dict):
        if list(got) != list(expected):
            return f"{where}: keys {list(got)!r}, expected {list(expected)!r}"
        pairs = [(f"{where}[{k!r}]", expected[k], got[k]) for k in expected]
    else:
        if len(got) != len(expected):
            return f"{where}: expected a {type(expected).__name__} of {len(expected)}, got {len(got)}"
        pairs = [(f"{where}[{i}]", e, g) for i, (e, g) in enumerate(zip(expected, got))]
    return next((d for w, e, g in pairs if (d := first_difference(e, g, w, rtol, kinds))), None)


def _is_jax(value) -> bool:
    return type(value).__module__.startswith("jax")


def _kind_difference(expected, got, where: str) -> str | None:
    """What kind of value `got` is against `expected`'s: a Python number of another type (a
    NumPy scalar, a 0-d array) where NumPy gives a Python number, a NumPy scalar of another type
    (np.float32 for np.float64, a Python float, a 0-d array), anything but an array (a NumPy or
    the caller's jax.Array) where NumPy gives an array, or another type of anything else."""
    if type(expected) in _PY_SCALARS or isinstance(expected, np.generic) or expected is None \
            or isinstance(expected, str):
        if type(got) is type(expected):
            return None
        if isinstance(expected, np.generic) and isinstance(got, np.generic):  # NumPy's scalars both
            return f"{where}: dtype {got.dtype}, expected {expected.dtype}"
        return f"{where}: NumPy returns {_kind(expected)}, np2ref {_kind(got)}"
    if isinstance(expected, np.ndarray):
        if isinstance(got, np.ndarray) or _is_jax(got) and hasattr(got, "dtype"):
            return None
        return f"{where}: NumPy returns {_kind(expected)}, np2ref {_kind(got)}"
    return None  # another object: compared as an array of its values, as before


def _kind(value) -> str:
    if isinstance(value, np.ndarray):
        return f"a {value.dtype} array of shape {value.shape}"
    if isinstance(value, np.generic):
        return f"a NumPy {type(value).__name__} ({value!r})"
    if type(value) in _PY_SCALARS:
        return f"a Python {type(value).__name__} ({value!r})"
    if _is_jax(value):
        return f"a jax.Array of shape {getattr(value, 'shape', '?')}"
    return f"a {type(value).__name__}" if value is not None else "None"


def _close(e: np.ndarray, g: np.ndarray, rtol: float | None) -> np.ndarray:
    if e.dtype.kind in "fc":
        rtol = RTOL.get(e.dtype, 1e-9) if rtol is None else rtol
        finite = np.abs(e[np.isfinite(e)])
        scale = max(1.0, float(finite.max())) if finite.size else 1.0
        try:
            close = np.isclose(g, e, rtol=rtol, atol=rtol * scale, equal_nan=True)
            return close & _zero_signs_agree(e, g)
        except TypeError:  # got is not numeric at all
            return np.zeros(e.shape, bool)
    return g == e


def _zero_signs_agree(e: np.ndarray, g: np.ndarray) -> np.ndarray:
    """False where both are zero of different signs (the real or the imaginary part)."""
    parts = [(e.real, g.real), (e.imag, g.imag)] if e.dtype.kind == "c" else [(e, g)]
    agree = np.ones(e.shape, bool)
    for a, b in parts:
        b = np.asarray(b)
        if b.dtype.kind not in "fc":  # an integer result against a float: the value decides
            continue
        both_zero = (a == 0) & (b == 0)
        agree &= ~both_zero | (np.signbit(a) == np.signbit(b))
    return agree


def differs_only_where_not_finite(expected, got, rtol: float | None = None) -> bool:
    """Whether every element on which two results disagree is NaN or infinite on one side (and
    at least one disagrees). Such a difference comes from an input on which the original
    already produces NaN or inf, where one rounding step (XLA fuses a*b+c into one FMA) decides
    between 0/0 and tiny/0; the values themselves say nothing about the translation."""
    flags = list(_nonfinite_flags(expected, got, rtol))
    return bool(flags) and all(flags)


def _nonfinite_flags(expected, got, rtol):
    """One flag per differing leaf: True when its differences are all at non-finite values."""
    if isinstance(expected, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            yield False
            return
        for e, g in zip(expected, got):
            yield from _nonfinite_flags(e, g, rtol)
        return
    if isinstance(expected, dict):
        for k, v in expected.items():
            yield from _nonfinite_flags(v, got.get(k) if isinstance(got, dict) else None, rtol)
        return
    if first_difference(expected, got, "", rtol) is None:
        return
    e, g = np.asarray(expected), np.asarray(got)
    if e.shape != g.shape or e.dtype.kind not in "fc" or g.dtype.kind not in "fc":
        yield False
        return
    bad = ~np.asarray(_close(e, g, rtol))  # empty where the difference is a value's type
    yield bool(bad.any()) and bool(np.all(~np.isfinite(e[bad]) | ~np.isfinite(g[bad])))


def worst_error(expected, got) -> float:
    """The largest difference between two results: for floats, max |got - expected| over
    max(1, max |expected|) (NaN against NaN counts as equal); for integers and booleans the
    largest absolute difference; inf when shapes or structures differ."""
    if isinstance(expected, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return float("inf")
        return max((worst_error(e, g) for e, g in zip(expected, got)), default=0.0)
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return float("inf")
        return max((worst_error(v, got.get(k)) for k, v in expected.items()), default=0.0)
    if expected is None or isinstance(expected, str):
        return 0.0 if expected == got else float("inf")
    try:
        e = np.asarray(expected)
        g = np.asarray(got)
        if e.shape != g.shape:
            return float("inf")
        if e.size == 0:
            return 0.0
        with np.errstate(all="ignore"):
            if e.dtype.kind in "fc" or g.dtype.kind in "fc":
                same = (g == e) | (np.isnan(e) & np.isnan(g))
                diff = np.where(same, 0.0, np.abs(g - e))
                diff = np.where(np.isnan(diff), np.inf, diff)
                finite = np.abs(e[np.isfinite(e)])
                scale = max(1.0, float(finite.max())) if finite.size else 1.0
                return float(np.max(diff)) / scale
            return float(np.max(np.abs(g.astype(float) - e.astype(float))))
    except (TypeError, ValueError):
        return float("inf")


@dataclasses.dataclass
class Comparison:
    """One call compared: the first difference (None when they agree), the worst error, and the
    outputs that carried information (the result and the arrays the call changed)."""
    difference: str | None
    worst_error: float
    outputs: tuple[str, ...]


def run_on_copies(fn, signature: inspect.Signature, arguments: dict, module_of=None):
    """Call fn on deep copies of `arguments` (name -> value, in parameter order); returns
    (result, the copies after the call). NumPy's floating-point warnings are silenced. Random
    state is copied too: a Generator argument is deep-copied, and NumPy's global generator and
    the module-level generators fn's module (or `module_of`'s) holds are put back as they were, so every run on
    copies draws the same numbers and the caller's streams do not move."""
    keep = {id(v): v for v in arguments.values() if isinstance(v, types.ModuleType)}
    call_args = copy.deepcopy(arguments, keep)
    bound = inspect.BoundArguments(signature, call_args)
    module_generators = [g for g in getattr(module_of or fn, "__globals__", {}).values()
                         if isinstance(g, (np.random.Generator, np.random.RandomState))]
    states = [(g, copy.deepcopy(g.bit_generator.state if isinstance(g, np.random.Generator) else g.get_state()))
              for g in module_generators]
    global_state = np.random.get_state()
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = fn(*bound.args, **bound.kwargs)
    finally:
        np.random.set_state(global_state)
        for g, state in states:
            if isinstance(g, np.random.Generator):
                g.bit_generator.state = state
            else:
                g.set_state(state)
    return result, call_args


def compare_outputs(expected, got, final_expected: dict, final_got: dict, initial: dict,
                    mutated=(), rtol: float | None = None, kinds: bool = True) -> Comparison:
    """Compare a call's result and the final state of every array argument.

    `initial` holds the inputs before the call; an argument counts as an output when the
    translation says it writes it (`mutated`) or when the original changed it. Outputs that
    are empty or all NaN are compared but do not count: they cannot show a difference."""
    outputs = []
    diff = first_difference(expected, got, "result", rtol, kinds)
    error = worst_error(expected, got)
    if _informative(expected):
        outputs.append("result")
    for name, value in final_expected.items():
        if not isinstance(value, np.ndarray):
            continue
        where = f"argument `{name}`"
        if diff is None:
            diff = first_difference(value, final_got.get(name), where, rtol)
        error = max(error, worst_error(value, final_got.get(name)))
        before = initial.get(name)
        changed = not (isinstance(before, np.ndarray) and before.shape == value.shape
                       and np.array_equal(before, value, equal_nan=before.dtype.kind in "fc"))
        if (name in mutated or changed) and _informative(value):
            outputs.append(name)
    return Comparison(diff, error, tuple(outputs))


def _informative(value) -> bool:
    """Whether a value can tell two computations apart: not None, not empty, not all NaN."""
    if isinstance(value, (tuple, list)):
        return any(_informative(v) for v in value)
    if isinstance(value, dict):
        return any(_informative(v) for v in value.values())
    if value is None:
        return False
    try:
        a = np.asarray(value)
    except Exception:
        return True
    if a.dtype.kind in "fc":
        return bool(np.any(~np.isnan(a)))
    return a.size > 0
