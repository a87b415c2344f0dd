"""Lists of Python numbers a function builds (rules/pylists.py): `hist.append(hist[-1] * 2)`,
`hist.append(t2)` after `t2 = t * 2`, a loop's `hist.append(hist[-1] + float(x[i]))`: each item
comes back Python's float or int, as NumPy's program holds it (np.float64 before:
fuzz_1a5f0e7c20); an item read and computed on is a Python scalar, with Python's rules. A list
holding a NumPy scalar keeps NumPy's kinds item by item; one passed to a module function that
only reads it (`_keep(hist)`) is typed still, one passed to a function that appends to it is not.

Each case against NumPy: the result's items' types and values, and the written argument."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref


def item_doubled(U):
    hist = []
    hist.append(float(U.sum()))
    hist.append(hist[-1] * 2)
    U[0] = hist[-1]
    return hist


def name_appended(U):
    hist = []
    t = float(U.sum())
    t2 = t * 2
    hist.append(t2)
    return hist, [t2 + 1.0]


def loop_appended(U):
    hist = [0.0]
    for i in range(U.shape[0]):
        hist.append(hist[-1] + float(U[i]))
    U[-1] = hist[-1]
    return hist


def item_computed(U):
    hist = [float(U[0]), int(U[1])]
    x = hist[0] * 3
    return x, hist[1] - 1, len(hist)


def mixed_items(U):
    hist = [float(U[0])]
    hist.append(U[1])  # NumPy's scalar: this list is not Python numbers only
    hist.append(hist[-1] * 2)
    return hist


def _keep(lst):
    return lst


def passed_on(U):
    hist = [float(U[0])]
    _keep(hist)  # a function may put anything in it: this one puts nothing (it only returns it)
    hist.append(hist[-1] * 2)
    return hist


def passed_by_name(U):
    hist = [float(U[0])]
    _keep(lst=hist)
    hist.append(hist[-1] + 1.0)
    return hist


def kept_and_appended(U):
    hist = [float(U[0])]
    other = _keep(hist)  # the helper's result is the list itself: an append to it is one to hist
    other.append(U[1])
    hist.append(hist[-1] * 2)
    return hist, other


def _count(lst, k=0):
    n = len(lst)
    for v in lst:
        k += 1
    return n


def _mean(x):
    return float(x.sum()) / x.shape[0]


def counted(U):  # `n = helper(...)` of a helper returning a Python number: one in the caller too
    hist = [float(U[0])]
    n = _count(hist, k=2)
    m = _mean(U)
    hist.append(hist[-1] * n)
    hist.append(m * 3)
    return hist, n, m


def _add(lst, x):
    lst.append(x[1])


def appended_by_helper(U):
    hist = [float(U[0])]
    _add(hist, U)  # the helper puts NumPy's scalar in: NumPy's kinds from then on
    hist.append(hist[-1] * 2)
    return hist


def _kinds(v):
    if isinstance(v, (list, tuple)):
        return [_kinds(x) for x in v]
    return type(v)


@pytest.mark.parametrize("fn", [item_doubled, name_appended, loop_appended, item_computed, mixed_items, passed_on,
                                passed_by_name, appended_by_helper, kept_and_appended, counted])
def test_a_list_of_python_numbers_comes_back_as_python_numbers(fn):
    U0 = np.array([1.0, 2.0, 3.0])
    ref, got = U0.copy(), U0.copy()
    expected, out = fn(ref), np2ref.compile(fn, host_below=0)(got)
    assert _kinds(out) == _kinds(expected), (out, expected)
    assert out == expected
    np.testing.assert_array_equal(got, ref)


def item_divided(U):
    hist = [float(U.sum())]
    return hist[-1] / float(U[0] - U[0])


def test_an_item_divided_by_zero_raises_pythons_error():
    """`hist[-1] / 0.0` between Python floats: ZeroDivisionError (inf before: jax.numpy's `/`)."""
    U = np.array([1.0, 2.0])
    with pytest.raises(ZeroDivisionError):
        item_divided(U.copy())
    with pytest.raises(ZeroDivisionError):
        np2ref.compile(item_divided, host_below=0)(U.copy())
