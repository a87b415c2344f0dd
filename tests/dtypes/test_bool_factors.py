"""A float times a boolean: XLA rewrites multiply(x, convert(b)) to select(b, x, 0), so nan * False
and inf * False were 0.0 where NumPy's are nan (fuzz_1212f1a004, found by fuzz12's scalar_acc
family). rt/divisions.py puts the converted boolean behind an optimization barrier in the
jitted call's program (under a caller's own jax.vmap of `.pure` the fences are not applied:
the regression stays open there)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def scaled(A, b):
    with np.errstate(all="ignore"):
        s = 1.0 - A[0] * b[0]
        v = A * b
        w = b * A[::-1]
    return s, v, w


def masked_sum(A, b):
    with np.errstate(all="ignore"):
        return (A * b).sum(), np.float32(2.0) * b[1]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fn", [scaled, masked_sum])
def test_nan_and_inf_times_false_are_numpys(fn, dtype):
    A = np.array([np.nan, np.inf, -np.inf, 1.5], dtype)
    b = np.array([False, False, True, True])
    compiled = np2ref.compile(fn, host_below=0)
    assert_same_as_numpy(fn, compiled, A, b)
    assert_same_as_numpy(fn, compiled, A, ~b)
