"""How the fuzz runner tells a translated run from NumPy's: printed output compared number by number,
arguments and results as compare.first_difference does (types, dtypes, zeros' signs), what is returned as the argument
itself, batched results against one-by-one ones, and whether arguments share memory."""

from __future__ import annotations

import itertools
import re

import numpy as np

from . import world
from ..compare import first_difference


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)\b")


def _printed_difference(got: str, expected: str) -> str | None:
    """What the call printed against what NumPy's run printed: the same text, numbers within
    float32's comparison tolerance (a float printed in full shows XLA's summation order, which
    differs from NumPy's in the last bits: docs/semantics.md)."""
    if got == expected:
        return None
    texts = [_NUMBER.split(got), _NUMBER.split(expected)]
    numbers = [_NUMBER.findall(got), _NUMBER.findall(expected)]
    if texts[0] == texts[1] and len(numbers[0]) == len(numbers[1]):
        g, e = (np.array([float(x) for x in n]) for n in numbers)
        if np.all(np.isclose(g, e, rtol=1e-4, atol=0, equal_nan=True)):
            return None
    return f"printed {got[:300]!r}, NumPy printed {expected[:300]!r}"


def _compare_args(names, expected_args, got_args) -> str | None:
    for name, e, g in zip(names, expected_args, got_args):
        # an array, a list or dict (what a call can write: its items' types too), a tuple of arrays
        if isinstance(e, (np.ndarray, list, dict)) or _holds_arrays(e):
            diff = first_difference(e, g, f"argument `{name}`")
            if diff:
                return diff
        if isinstance(e, np.random.Generator) and e.bit_generator.state != g.bit_generator.state:
            return f"argument `{name}`: the generator's state differs from NumPy's after the call"
        diff = world.same_object_state(name, e, g)
        if diff:
            return diff
    return None


def _numpy_args(args) -> list:
    """The arguments NumPy's run gets: a jax.Array argument (world.py's jax_args) as the NumPy array
    of its values, which is what np2ref takes it for (a call with jax.Arrays runs the translation of
    the NumPy program on their values; NumPy code handed one directly would mix JAX's operators,
    under its 32-bit mode, into the program)."""
    return [np.array(v) if type(v).__module__.startswith("jax") else v for v in args]


def _holds_text(value) -> bool:
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return isinstance(value, str) or any(_holds_text(v) for v in items)


def _holds_arrays(value) -> bool:
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return any(isinstance(v, np.ndarray) or _holds_arrays(v) for v in items)


def _identity(expected, got, args_np, args_c, names, where: str = "result") -> str | None:
    """NumPy returned an argument itself (a NumPy array or the caller's jax.Array, in a tuple
    too, and in a list or dict, nested): np2ref must return the caller's same array."""
    if isinstance(expected, (tuple, list)) and type(got) is type(expected) and len(expected) == len(got):
        return next((d for k, (e, g) in enumerate(zip(expected, got))
                     if (d := _identity(e, g, args_np, args_c, names, f"{where}[{k}]"))), None)
    if isinstance(expected, dict) and isinstance(got, dict):
        return next((d for k in expected if k in got
                     if (d := _identity(expected[k], got[k], args_np, args_c, names, f"{where}[{k!r}]"))), None)
    for name, e, c in zip(names, args_np, args_c):
        if (isinstance(e, np.ndarray) or _is_jax(e)) and expected is e and got is not c:
            return f"{where}: NumPy returns argument `{name}` itself, np2ref returns a new array"
    return None


def _compare_batched(e0, e1, got, where: str) -> str | None:
    if isinstance(e0, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(e0):
            return f"{where}: expected a sequence of {len(e0)}, got {type(got).__name__}"
        for k, (a, b, g) in enumerate(zip(e0, e1, got)):
            diff = _compare_batched(a, b, g, f"{where}[{k}]")
            if diff:
                return diff
        return None
    if e0 is None:
        return None if got is None else f"{where}: expected None, got {type(got).__name__}"
    stacked = np.stack([np.asarray(e0), np.asarray(e1)])
    # a Python scalar: its dtype is JAX's choice; two members of different types (`max(y32[0], 0.5)`:
    # np.float32 in one, the Python float in the other): no batch holds both, the calls check each
    if not all(isinstance(e, (np.ndarray, np.generic)) for e in (e0, e1)) or np.asarray(e0).dtype != np.asarray(e1).dtype:
        got = np.asarray(got).astype(stacked.dtype)
    return first_difference(stacked, got, where)


def _perturb(x: np.ndarray) -> None:
    """Change the values in place (strides kept: a view in NumPy stays a view)."""
    if x.dtype.kind == "b":
        np.logical_not(x, out=x)
    elif x.dtype.kind in "iu":
        x += 1
    else:
        x *= -1
        x += 0.25


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all((a == b) | ((a != a) & (b != b))))


def _shares_memory(arrays: list[np.ndarray]) -> bool:
    return any(np.shares_memory(x, y) for x, y in itertools.combinations(arrays, 2))


_WIDE = frozenset(map(np.dtype, ("float64", "int64", "uint64", "complex128")))


def _is_jax(value) -> bool:
    return type(value).__module__.startswith("jax")


def caller_32(args) -> bool:
    """A caller in 32 bits: jax.Arrays passed (JAX set-up code's), none of them 64-bit."""
    arrays = [a for a in args if _is_jax(a)]
    return bool(arrays) and not any(np.dtype(a.dtype) in _WIDE for a in arrays)


def _caller_types(expected, got, args, where: str = "result") -> str | None:
    """A call given jax.Arrays returns NumPy's types where the NumPy program returns NumPy's array
    or scalar: a jax.Array there is one the caller's JAX computes on (in 32 bits with x64 off, in
    its own summation order). The caller's own jax.Array returned is itself (the NumPy run's
    arguments are NumPy copies: `expected` is an ndarray there; _identity checks the object)."""
    if not any(_is_jax(a) for a in args):
        return None
    if isinstance(expected, (tuple, list)) and isinstance(got, (tuple, list)):
        return next((d for k, (e, g) in enumerate(zip(expected, got))
                     if (d := _caller_types(e, g, args, f"{where}[{k}]"))), None)
    if isinstance(expected, (np.ndarray, np.generic)) and _is_jax(got) and not any(got is a for a in args):
        return f"{where}: NumPy returns a {expected.dtype} {type(expected).__name__}, np2ref a jax.Array"
    return None
