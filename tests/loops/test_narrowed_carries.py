"""A NumPy value a loop carries that a trip rebinds to another dtype than the carry keeps: `i =
pairs[0, 1]` (np.int64), then `i = parent[i]` (np.int32): NumPy's i is int32 after a trip and int64
after none; `s = np.float64(0.1)`, then `s = y32[k]`. The carry holds the two promoted (int64,
float64), so main 5c387a5 returned np.int64 where NumPy's is np.int32 (a `while`, fuzz_1212f1a001),
computed `s * 0.1` in float64 where NumPy's later trips compute in float32, and raised JAX's raw carry
TypeError for a `for` over a static range of float64 -> float32 or a range read from data. Now a
`for` over a static range runs its first trip on its own and carries the new dtype (NumPy's, exactly);
a loop whose trip count is data is refused (NPR128 at the loop: the dtype after it is the data's)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy


def walk_for(parent, pairs):
    i = pairs[0, 1]
    for _ in range(3):
        i = parent[i]
    return i


def narrowed_float_for(x, y):
    s = np.float64(0.1)
    t = 0.0
    for k in range(x.shape[0]):
        t = t + s * 0.1
        s = y[k]
    return s, t


def walk_while(parent, pairs):
    i = pairs[0, 1]
    while parent[i] != i:  # (tests/regressions/fuzz_1212f1a001.py: the same, halving the path as it goes)
        i = parent[i]
    return i


def walk_for_data(parent, pairs):
    i = pairs[0, 1]
    for _ in range(pairs[0, 0]):
        i = parent[i]
    return i


def narrowed_float_while(x, y):
    s = np.float64(0.1)
    t = 0.0
    k = 0
    while x[k] > 0:
        t = t + s * 0.1
        s = y[k]
        k += 1
    return s, t


def _parent():
    return np.array([0, 0, 2, 2, 4], dtype=np.int32)


@pytest.mark.parametrize("fn, args", [
    (walk_for, lambda: (_parent(), np.array([[0, 1]]))),
    (narrowed_float_for, lambda: (np.array([1.0, 2.0, 3.0]), np.array([0.3, 0.7, 0.1], np.float32))),
], ids=["walk_for", "narrowed_float_for"])
def test_a_static_for_follows_the_dtype_its_first_trip_binds(fn, args):
    assert_returns_as_numpy(fn, args)


@pytest.mark.parametrize("fn, args", [
    (walk_while, (_parent(), np.array([[0, 1]]))),
    (walk_while, (_parent(), np.array([[0, 0]]))),
    (walk_for_data, (_parent(), np.array([[2, 1]]))),
    (narrowed_float_while, (np.array([1.0, -1.0]), np.array([0.3, 0.7], np.float32))),
], ids=["walk_while", "walk_while_no_step", "walk_for_data", "narrowed_float_while"])
def test_a_loop_on_data_that_narrows_a_numpy_value_is_refused(fn, args):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*args)
    assert "NPR128" in {d.code for d in info.value.diagnostics}


def test_the_data_gives_both_dtypes():
    """(else the refusals above would refuse what NumPy types one way)"""
    assert {type(walk_while(_parent(), np.array([[0, k]]))) for k in (0, 1)} == {np.int64, np.int32}
