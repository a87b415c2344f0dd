"""Python ints made from an array's `.size` / `.ndim` keep Python's type through a translation.

`k = x.size - 1`, counted down in a `while` on array data and returned (or returned early
from it, or appended to a history list by the caller): NumPy's program returns a Python int.
`x.shape[0]` was known as one, `x.size` was not, so the translation returned np.int64 and a
printed history read `[np.int64(2), ...]` for NumPy's `[2, ...]`
(rules/pyscalars.py: `.size`, `.ndim` classify as Python ints).
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, on_tpu


def last_above(x):
    k = x.size - 1
    while k > 0 and x[k] <= 0.5:
        k -= 1
    return k


def last_above_early(x):
    k = x.size - 1
    while k > 0:
        if x[k] > 0.5:
            return k
        k -= 1
    return -1


def rank_steps(x):
    d = x.ndim + 1
    n = x.size
    return n // 2, d * 3


def settle_history(x, steps):
    settled = []
    for s in range(steps):
        x[1:] += 0.4 * (x[:-1] - x[1:])
        settled.append(last_above_early(x))
    return settled


X = np.array([0.1, 0.9, 0.2, 0.1, 0.3])


@pytest.mark.parametrize("fn", [last_above, last_above_early, rank_steps])
def test_size_ints_returned_as_python_ints(fn):
    want, got = fn(X.copy()), np2ref.compile(fn, host_below=0)(X.copy())
    assert repr(got) == repr(want)


def test_history_of_returned_ints():
    x0 = np.zeros(8)
    x0[0] = 1.0
    a, b = x0.copy(), x0.copy()
    want, got = settle_history(a, 5), np2ref.compile(settle_history, host_below=0)(b, 5)
    assert repr(got) == repr(want)
    assert_numpys_bits(b, a)
