"""`==` and `!=` between two tuples or lists whose items are traced integers (a particle's cell
`(i, j) == WELL` in scripts14a's darcy_sor, `i, j = int(r), int(c)` from array data). Python
compares item by item and returns a Python bool; npr_seq_op handed the tuples to Python's own
operator, which asked each traced item's truth, and np2ref refused the function (NPR030: "a branch
or `and`/`or` depends on array data"). Integer and bool items are compared as values now
(rt/ops._npr_seq_equal: no NaN, so Python's identity-first rule changes nothing); a list never
equals a tuple and sequences of other lengths never equal, as in Python. Float items stay refused
(Python's `x is y or x == y` makes a NaN equal to itself only as the same object). Compared with
NumPy on every path, the result's type (a Python bool) included."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy

WELL = (2, 3)


def first_hit(a, n):
    steps = n
    for k in range(n):
        i, j = int(a[k, 0]), int(a[k, 1])
        if a[k, 2] > 5 or (i, j) == WELL:
            steps = k
            break
    return steps


def returned(x):
    t = (int(x[0]), int(x[1]))
    return t == WELL, t != (2, 4)


def lists_and_lengths(x):
    i, j = int(x[0]), int(x[1])
    return [i, j] == [2, 3], [i, j] == (2, 3), [i, j] != (2, 3), (i,) == (i, j), (i, j) != (i,)


def numpy_items(x, out):
    if (x[0], x[1]) == (2, 3):
        out[0] = 1
    return (x[1], x[0]) != (2, 3)


def float_items(x):
    return (float(x[0]),) == (2.0,)


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


CASES = {
    "first_hit": [(np.array([[0.0, 1, 0], [2, 3, 1], [4, 4, 9]]), 3), (np.array([[0.0, 1, 0], [1, 3, 1], [4, 4, 9]]), 3),
                  (np.array([[0.0, 1, 0], [1, 3, 1], [4, 4, 1]]), 3)],
    "returned": [(np.array([2.5, 3.0]),), (np.array([2.0, 4.0]),), (np.array([-2.0, 3.0]),)],
    "lists_and_lengths": [(np.array([2, 3]),), (np.array([2, 2]),)],
    "numpy_items": [(np.array([2, 3], np.int16), np.zeros(1, np.int16)), (np.array([3, 2], np.int16), np.zeros(1, np.int16)),
                    (np.array([True, False]), np.zeros(1, np.int16))],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tuples_of_traced_integers_compare_as_in_python(name):
    for args in CASES[name]:
        expected, got = assert_same_as_numpy(globals()[name], compiled(name), *args)
        items = expected if isinstance(expected, tuple) else (expected,)
        assert [type(v) for v in (got if isinstance(got, tuple) else (got,))] == [type(v) for v in items]


def test_float_items_stay_refused():
    with pytest.raises(np2ref.Np2RefError) as err:
        compiled("float_items")(np.array([2.0]))
    assert err.value.diagnostics[0].code == "NPR030"


def unsigned_items(x):
    return (int(x[0]) * 0 + x[0], x[1]) == (-1, 255)


def test_an_unsigned_item_against_a_negative_int_is_numpys():
    x = np.array([255, 255], np.uint8)
    assert_same_as_numpy(unsigned_items, compiled("unsigned_items"), x)
