"""An item of a list of Python numbers passed for a parameter read item by item (list_items.py:
`for v in ks`, `enumerate(ks)`, `ks[k]`), computed on and returned, is a Python number in NumPy's
program (`t = t + v; return t * 2`, `return ks[0] * 2`). np2ref returned NumPy's float64 / int64:
rules/pyscalars.py did not count the items among Python scalars (found by fuzz8's items_list
family, 2 of its first 8 programs). They are now what a draw is, a Python number when weakly
typed (the list is passed as a weakly typed array), so npr_pyreturn gives Python's type back; a
NumPy array passed for the same parameter gives NumPy's scalars, as NumPy does.

A list of Python ints and floats mixed (`[0.5, 2]`) was passed as NumPy's strongly typed float64
array: `x32 * ks[1]` came back float64 for NumPy's float32 (a wrong dtype), and `ks[1] * 2` a
float. Such a list is now passed as Python numbers of their own kinds, each weakly typed
(rt/arguments.py `_npr_weak_items`); a loop indexing it with its variable runs as a Python loop.

A Python float read back out of a local list (`hist = [dt]; hist.append(hist[-1] * 2)`, then
`hist[-1] * 2` returned, or the list returned) was NumPy's float64 too (fuzz7's open regression
fuzz_1a5f0e7c20, and fuzz8's py_passthrough): a local list only displayed, appended to and read by
index (rules/pylists.py) holds the join of what is put in it; an append of a Python scalar
notes the value (npr_pyreturn), as a returned one is. So is `return dt * 2` of a parameter dt
never rebound: Python's float when the caller passes one, NumPy's float64 when it passes that."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy


def accumulated(ks):
    t = 1.0
    for k, v in enumerate(ks):
        t = t + v
    return t * 2


def item_pair(x, ks):
    return x * ks[0], ks[0] * 2


def indexed_loop(x, ks, n):
    t = 0.0
    for k in range(n):
        t = t + ks[k]
        x *= ks[k]
    return x, t


def iterated(x, ks):
    s = 0
    for v in ks:
        s = s + v * 2
    x[0] = s
    return s


def read_back(u, dt):
    hist = [dt]
    hist.append(hist[-1] * 2)
    u *= hist[-1]
    return dt, hist[-1] * 2


def returned_list(u):
    hist = []
    hist.append(float(u.sum()))
    hist.append(hist[-1] * 2)
    u[0] = hist[-1]
    return hist


def product(u, dt):
    hist = []
    hist.append(dt)
    x = hist[0] * hist[-1]
    u[0] = x
    return x


def stored_into(u, dt):  # a NumPy scalar put in the list: kept out, NumPy's float64 returned
    hist = [u.sum()]
    hist.append(dt)
    return hist[0] * 2


def doubled(u, dt):  # arithmetic of a parameter never rebound: a Python float when one is passed
    u *= dt
    return dt * 2, -dt


X32 = np.array([0.5, 1.5, -2.0], dtype=np.float32)
def scaled(x, ks):
    return x * ks[1], ks[1] * 2, x * ks[0]


CASES = [(doubled, lambda: (X32.copy(), 0.5)), (doubled, lambda: (X32.copy(), np.float64(0.5))), (read_back, lambda: (X32.copy(), 0.5)), (returned_list, lambda: (np.arange(3.0),)),
         (product, lambda: (np.zeros(2), 0.1)), (stored_into, lambda: (np.arange(3.0), 0.5)), (scaled, lambda: (X32.copy(), [0.5, 2])), (scaled, lambda: (np.array([1, 2], np.int32), [0.5, 2])),
         (indexed_loop, lambda: (X32.copy(), [0.5, 2, 3], 3)), (accumulated, lambda: ([2.0, 0.25, 3.0],)), (accumulated, lambda: (np.array([2.0, 0.25]),)),
         (item_pair, lambda: (X32.copy(), [-1, 0, 3])), (item_pair, lambda: (X32.copy(), [0.5])),
         (indexed_loop, lambda: (X32.copy(), [0.5, 2.0, -1.5], 3)), (iterated, lambda: (np.zeros(2), [1, 2, 3])),
         (iterated, lambda: (np.zeros(2), [0.5, 2]))]


def listed(u, dt, n):  # parameters' values in a returned list, one of them an int's arithmetic
    hist = [dt, n]
    hist.append(hist[0] * n)
    hist.append(n * 3)
    u[0] = hist[2]
    return hist, hist[-1] - 1


# a local list holding a parameter's value (`hist = [dt]`, `hist.append(dt)`): a Python float when the
# caller passes one, NumPy's scalar when it passes that (npr_pyreturn(..., 'passed', dt): rules/pylists.py)
CASES += [(read_back, lambda: (X32.copy(), np.float64(0.5))), (read_back, lambda: (X32.copy(), 3)),
          (product, lambda: (np.zeros(2), np.float32(0.1))), (product, lambda: (np.zeros(2, np.int32), 3)),
          (listed, lambda: (np.zeros(2), 0.5, 3)), (listed, lambda: (np.zeros(2), np.float64(0.5), 3)),
          (listed, lambda: (np.zeros(2, np.float32), 0.5, np.int64(3))), (listed, lambda: (X32.copy(), 2, 3))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_returned_items_keep_pythons_types(fn, args):
    assert_returns_as_numpy(fn, args)
