"""A draw NumPy returns as a Python number (`rng.normal()`, `np.random.rand()`) feeding a name
in straight-line code (`t = t * 0.5 + rng.normal()`, `t += np.random.rand()`), returned: NumPy's
program returns a Python float. rules/pyscalars.py typed such a name only where the function also
had a float()/int()/math call, a loop or a branch, so np2ref returned NumPy's float64 (found by
fuzz8's py_draws family, 2 of 150 programs); a draw now counts as one of those. Differential:
the value, its Python type, the generator's state after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import result_types
from np2ref.verify.compare import first_difference


def rescaled(rng):
    t = 0.0
    t = t * 0.5 + rng.normal()
    return t


def added(x):
    t = 0.0
    t += np.random.rand()
    x *= t
    return t


def scaled_array(x, rng):  # an array draw stays an array; a float32 array stays float32
    t = rng.exponential(0.5)
    return x * t, t


X32 = np.array([0.5, 1.5], dtype=np.float32)
CASES = [(rescaled, lambda: (np.random.default_rng(5),)), (added, lambda: (X32.copy(),)),
         (scaled_array, lambda: (X32.copy(), np.random.default_rng(1)))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_a_drawn_python_number_is_returned_as_one(fn, args):
    a0, a1 = args(), args()
    np.random.seed(3)
    want = fn(*a0)
    compiled = np2ref.compile(fn, host_below=0)
    np.random.seed(3)
    got = compiled(*a1)
    assert result_types(got) == result_types(want)
    assert first_difference(want, got, "result") is None
    for x, y in zip(a0, a1):
        if isinstance(x, np.random.Generator):
            assert x.random() == y.random()
        else:
            assert first_difference(x, y, "argument") is None
