"""A NumPy value a loop carries that its body rebinds to another dtype: `y = y * 0.3 + b` with
float32 `y` and `b = np.float64(...)` is float32 in NumPy's first iteration and float64 after;
`if i == k: y = y.astype(np.float64)` changes it midway. The lax loop carried the final dtype
from the start, so the iterations before the change were computed in float64 where NumPy
rounds them to float32 (a silent difference in the 7th digit; found by
tests/third_party/scripts6/dtype_drift_loop.py). Now the first iteration runs on its own, and a
loop that still changes the dtype runs as Python (rt/loops._npr_check_widened); a `while` on
array data whose carried float changes dtype is refused (NPR128)."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, on_tpu


def drift(x, steps):
    bias = np.float64(1e-3)
    for i in range(steps):
        x = x * 0.3 + bias
    return x


def midway(y, steps):
    for i in range(steps):
        y = np.sqrt(y * 1.1)  # (no multiply-add: XLA's FMA would round float32 once, not twice)
        if i == steps // 2:
            y = y.astype(np.float64)
    return y


def int_to_wider(n, steps):
    for i in range(steps):
        n = n * 3 + np.int64(1)
    return n


def drift_while(x, tol):
    bias = np.float64(1e-3)
    while x.max() > tol:
        x = x * 0.3 + bias
    return x


X32 = np.linspace(0.1, 1, 7).astype(np.float32)


@pytest.mark.parametrize("fn", [drift, midway])
def test_a_float32_carry_that_becomes_float64_keeps_its_float32_iterations(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        if on_tpu() and fn is midway:  # a TPU's float32 sqrt is not correctly rounded (docs/tpu.md)
            expected, got = fn(X32.copy(), 9), np2ref.compile(fn)(X32.copy(), 9)
            np.testing.assert_allclose(got, expected, rtol=64 * np.finfo(np.float32).eps)
        else:
            expected, got = assert_same_as_numpy(fn, np2ref.compile(fn), X32, 9)
    assert got.dtype == expected.dtype == np.float64


def test_an_int32_carry_that_becomes_int64_wraps_as_numpy_does():
    with np.errstate(over="ignore"):
        assert_same_as_numpy(int_to_wider, np2ref.compile(int_to_wider), np.arange(4, dtype=np.int32) * 2**29, 3)


def test_a_while_on_data_whose_float_carry_changes_dtype_is_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(drift_while)(X32, 0.01)
    assert info.value.diagnostics[0].code == "NPR128"
