"""Python's max()/min() of an int and a float on array data (found by the scripts8b probes):
Python returns one of its operands, so `min(x[0], 2.5)` on int64 data is NumPy's int64 or
Python's float as the data decides, and `x * m` after it int64 or float64. np2ref's fold of
jnp.where promoted both to float64: `x * min(x[0], 2.5)` came back float64 where NumPy's is
int64, and `lo = 0; lo = max(lo, v)` over negative floats 0.0 where NumPy's is the int 0.
Refused now (NPR128); one kind of operand on both sides still translates, differentially."""

import numpy as np
import pytest

import np2ref
from np2ref.diagnostics import Np2RefError


def _scaled_by_min(x):
    m = min(x[0], 2.5)
    return x * m, m


def _floor_by_max(x):
    return x // max(x[0], 0.25)


def _running_max_from_int(x):
    lo = 0
    for v in x:
        lo = max(lo, v)
    return lo


def _same_kind(x, y):
    return x * min(x[0], 2), max(y[1], 0.5), min(y[0], y[1], -1.0)


@pytest.mark.parametrize("fn, arg", [(_scaled_by_min, np.array([1, 2, 3])), (_floor_by_max, np.array([3, 5, 8])),
                                     (_running_max_from_int, np.array([-1.5, -2.0]))])
def test_max_min_of_an_int_and_a_float_on_data_is_refused(fn, arg):
    """Each of these gave NumPy's values in the wrong dtype or type (float64 for int64 or int)."""
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(arg.copy())
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


def test_max_min_of_one_kind_still_gives_numpys_answer():
    x, y = np.array([4, 1, 7]), np.array([0.25, -3.0])
    want = _same_kind(x.copy(), y.copy())
    got = np2ref.compile(_same_kind, host_below=0)(x.copy(), y.copy())
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)
        assert np.asarray(g).dtype == np.asarray(w).dtype


def _scale_by_capped(x, y8):
    m = min(x[0], 3)  # NumPy: np.int64(5) -> the Python int 3 (weak): int8 * 3 wraps
    return y8 * m


@pytest.mark.xfail(strict=True, reason="left (docs/scripts.md, scripts8b): max()/min() of a NumPy scalar and a "
                   "Python number of one kind returns np2ref's strong value, where Python returns the Python number "
                   "when the data picks it (weak in NumPy's promotion): int8 * min(x[0], 3) is int64 300, NumPy's int8 44; "
                   "refusing every such mix refused `best = max(best, v)` loops the suite translates")
def test_max_min_of_a_numpy_scalar_and_a_python_number_keeps_the_python_numbers_weakness():
    x, y8 = np.array([5, 1]), np.array([100, 2], dtype=np.int8)
    want = _scale_by_capped(x.copy(), y8.copy())
    got = np.asarray(np2ref.compile(_scale_by_capped, host_below=0)(x.copy(), y8.copy()))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
