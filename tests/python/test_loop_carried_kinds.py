"""A name a loop or branch on array data leaves as a Python number or as a NumPy scalar, as the
data decides (kinds12): `i = start; while parent[i] != i: i = parent[i]` is the Python int where
the walk takes no step and np.int32 after one; `k = 0; if x[0] > 0: k = x[1]` the Python 0 or
NumPy's scalar. np2ref's traced carry holds one dtype and came back as NumPy's scalar either way.
Now a flag rides beside it (rt/carried_kinds.py): returned, printed, picked by max()/min(), it is
Python's or NumPy's as the data decides; where the kind would change a result's dtype (np.array of
a list of them, `y16 * k`, `type(k)`) the program is refused (NPR128). Each case runs both data
ways: the loop or branch leaving the Python number, and replacing it."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from tests.conftest import result_types


@functools.cache
def _compiled(fn):
    return np2ref.compile(fn, host_below=0)


def _same(fn, *args):
    """fn on NumPy and its translation (shared per function): results, their types, the arguments."""
    a0 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    a1 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want, got = fn(*a0), _compiled(fn)(*a1)
    assert result_types(got) == result_types(want)
    assert got == want
    for x, y in zip(a0, a1):
        np.testing.assert_array_equal(x, y)
    return want


def find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def find_next(parent, i):
    while parent[i] != i:
        i = parent[i]
    return i + 1  # Python's int + 1, or np.int32 + 1


def grow(x):
    v = 0.5
    while v < x[0]:
        v = v * x[1]
    return v


def branch_bound(x):
    k = 0
    if x[0] > 0:
        k = x[1]
    return k


def first_positive_before_a_negative(x):
    k = 0
    for j in range(x.shape[0]):
        if x[j] < 0:
            break
        k = x[j]
    return k


def last_of_a_data_range(x):
    k = 0
    for j in range(int(x[0])):
        k = x[j]
    return k


def counted(x):
    gap = 0
    while gap < x[0]:
        gap += 1
    return gap


PARENT = np.array([0, 0, 1, 2, 2, 4, 5], dtype=np.int32)


@pytest.mark.parametrize("i", [0, 3, 6])  # a root (no step), a walk of steps
def test_a_while_on_data_returns_the_python_int_it_started_with_or_numpys(i):
    assert type(_same(find, PARENT, i)) is (int if i == 0 else np.int32)


@pytest.mark.parametrize("i", [0, 3])
def test_arithmetic_after_the_loop_keeps_the_kind(i):
    _same(find_next, PARENT, i)


@pytest.mark.parametrize("x", [[0.25, 3.0], [1.0, 3.0]])  # no trip: the Python 0.5; trips: np.float64
def test_a_python_float_carried_by_a_while_loop(x):
    _same(grow, np.array(x))


@pytest.mark.parametrize("x", [[-1, 2, 3], [1, 2, 3]])
def test_a_branch_on_data_leaves_the_python_int_or_numpys(x):
    _same(branch_bound, np.array(x, dtype=np.int32))


@pytest.mark.parametrize("x", [[-1, 2, -1], [1, 2, -1], [1, 2, 3]])  # a break at once, later, none
def test_a_for_loop_with_a_break_on_data(x):
    _same(first_positive_before_a_negative, np.array(x, dtype=np.int32))


@pytest.mark.parametrize("x", [[0, 2, 3], [2, 5, 3]])  # range(0): no trip
def test_a_for_loop_over_a_range_of_data(x):
    _same(last_of_a_data_range, np.array(x, dtype=np.int32))


@pytest.mark.parametrize("x", [[0], [3]])
def test_a_python_int_on_every_path_stays_one(x):
    _same(counted, np.array(x, dtype=np.int32))


def labels(parent):
    return np.array([find(parent, i) for i in range(parent.shape[0])])


def labels_typed(parent):
    return np.array([find(parent, i) for i in range(parent.shape[0])], dtype=np.int64)


def labels_listed(parent):
    return np.array([find(parent, 0), find(parent, 1)])


@pytest.mark.parametrize("fn", [labels, labels_listed])
def test_an_array_of_them_whose_dtype_the_data_decides_is_refused(fn):
    """NumPy's array is int64 where an item is the Python int, int32 where none is: refused, where
    it was int32 (fuzz_f11a0c0001.py)."""
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(PARENT.copy())
    assert "NPR128" in str(info.value)


def test_an_array_of_them_with_its_dtype_given_translates():
    want, got = labels_typed(PARENT.copy()), _compiled(labels_typed)(PARENT.copy())
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def scaled16(x, y16):
    k = 0
    if x[0] > 0:
        k = x[1]
    return y16 * k  # int16 with the Python 0, int32 with np.int32


def type_of(x):
    k = 0
    if x[0] > 0:
        k = x[1]
    return type(k) is int


@pytest.mark.parametrize("fn, extra", [(scaled16, (np.array([1, 2], dtype=np.int16),)), (type_of, ())])
def test_where_the_kind_shows_in_a_type_it_is_refused(fn, extra):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(np.array([1, 2], dtype=np.int32), *extra)
    assert "NPR128" in str(info.value)


def printed(x):
    k = 0
    if x[0] > 0:
        k = x[1]
    print([k])
    return x.sum()


@pytest.mark.parametrize("x", [[-1, 2], [1, 2]])
def test_a_printed_list_shows_the_kind_the_data_left(x, capsys):
    printed(np.array(x, dtype=np.int32))
    want = capsys.readouterr().out
    _compiled(printed)(np.array(x, dtype=np.int32))
    assert capsys.readouterr().out == want


def counted_type(x):
    it = 0
    while True:
        x = 0.5 * x
        it += 1
        if np.abs(x).sum() < 1e-3 or it >= 40:
            break
    return type(it).__name__, isinstance(it, int)


def counted_promotes(x, y16):
    it = 0
    while it < x[0]:
        it += 1
    return (y16 * it).dtype.name, int((y16 * it).sum())  # int16 with a Python int (int64 with np.int64)


def halved_float(x, y32):
    t = 1.0
    while t > x[0]:
        t = t * 0.5
    return (y32 + t).dtype.name, type(t).__name__


@pytest.mark.parametrize("x", [[1.5, 0.25], [0.0, 0.0]])
def test_the_type_of_a_python_int_a_while_carries_is_int(x):
    """A Python number on every path of a `while` on data came back from the loop strongly typed:
    `type(it).__name__` said 'int64' where NumPy's says 'int' (fuzz_1212f1a003.py)."""
    assert _same(counted_type, np.array(x)) == ("int", True)


@pytest.mark.parametrize("x", [[0], [3]])
def test_a_python_int_a_while_carries_promotes_as_pythons(x):
    _same(counted_promotes, np.array(x, dtype=np.int32), np.array([1, 2], dtype=np.int16))


@pytest.mark.parametrize("x", [[2.0], [0.1]])
def test_a_python_float_a_while_carries_promotes_as_pythons(x):
    assert _same(halved_float, np.array(x), np.array([1.0], np.float32))[0] == "float32"
