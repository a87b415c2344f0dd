"""A list argument the function returns as itself (fuzz_a38bfff8a1): NumPy's program returns the
caller's list, the caller's arrays and scalars in it; np2ref traced the list's items and gave
back a new list of NumPy's values, where a 0-d array item came back NumPy's scalar. Now the list
(and an item returned as it is, `return st[0]`) is the caller's object (rt/arguments.py
_NprListArg); a list whose items the function wrote or changed keeps the general way."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy


def returned(c, st):
    c[0] += 1
    return st


def copied_then_returned(c, st):  # fuzz_a38bfff8a1's shape
    x = [y.copy() for y in st]
    c[1:] = x[1][:2] * 2
    return st


def returned_with_an_item(c, st):
    c[0] += st[1].sum()
    return st, st[0], {"first": st[0]}


def item_arithmetic(c, st):
    c[0] += 1
    return st[0] * 2, [st[2]]


def _args():
    return (np.zeros(3), [np.array(1.0), np.array([1.5, -1.5, 2.0]), np.float64(3.0)])


@pytest.mark.parametrize("fn", [returned, copied_then_returned, returned_with_an_item, item_arithmetic],
                         ids=lambda f: f.__name__)
def test_a_returned_list_argument_is_numpys(fn):
    assert_returns_as_numpy(fn, _args)


@pytest.mark.parametrize("fn", [returned, copied_then_returned], ids=lambda f: f.__name__)
def test_the_list_is_the_callers_own(fn):
    c, st = _args()
    got = np2ref.compile(fn, host_below=0)(c, st)
    assert got is st and all(a is b for a, b in zip(got, st))


def test_an_item_is_the_callers_own():
    c, st = _args()
    got = np2ref.compile(returned_with_an_item, host_below=0)(c, st)
    assert got[0] is st and got[1] is st[0] and got[2]["first"] is st[0]
