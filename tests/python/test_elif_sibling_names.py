"""A name bound in two branches of an `if`/`elif` chain on array data (an order book's `off =
rng.integers(...)` under `if kind <= 1:` and again under `elif kind <= 3:`, scripts13b's
order_book_int64). The `elif` is lowered inside the first branch's `else`, and it carried the
name with the first branch's binding as its initial value, because that binding comes earlier
in the text: the converted code read a local never bound on that path and stopped with a raw
UnboundLocalError. A binding in a `then` block whose `elif`/`else` holds the inner `if` is never
on the inner `if`'s path (rewrite/rules/branches._other_branches); in a loop, an earlier trip's
binding still reaches it (npr_bound). Compared with NumPy on every path."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def elif_chain(x, out):
    for i in range(x.size):
        k = x[i]
        if k <= 1:
            off = k + 1
            out[i] = off
        elif k <= 3:
            off = k + 2
            out[i] = off * 10
        else:
            out[i] = 0


def nested_else(x, out):
    k = x[0]
    if k <= 1:
        lvl = k * 2
        out[0] = lvl
    else:
        out[1] = 7
        if k <= 3:
            lvl = k - 1
            out[0] = lvl
    return out.sum()


def earlier_trip(x, out):
    # the first branch reads the value the `elif` bound on an earlier trip
    off = 100
    for i in range(x.size):
        if x[i] <= 1:
            out[i] = off
        elif x[i] <= 3:
            off = x[i] * 3
            out[i] = -1


def carried_after(x):
    off = -5
    if x[0] <= 1:
        off = x[0] + 1
    elif x[0] <= 3:
        off = x[0] + 2
    return off * 2


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


CASES = {
    "elif_chain": [(np.array([0, 2, 5, 3, 1]), np.zeros(5, dtype=np.int64)),
                   (np.array([5, 0, 2]), np.zeros(3, dtype=np.int64))],
    "nested_else": [(np.array([0]), np.zeros(2, dtype=np.int64)), (np.array([2]), np.zeros(2, dtype=np.int64)),
                    (np.array([9]), np.zeros(2, dtype=np.int64))],
    "earlier_trip": [(np.array([2, 0, 1, 3, 0]), np.zeros(5, dtype=np.int64)),
                     (np.array([0, 1, 3, 0]), np.zeros(4, dtype=np.int64))],
    "carried_after": [(np.array([0]),), (np.array([3]),), (np.array([8]),)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_name_bound_in_two_branches_is_numpys(name):
    for args in CASES[name]:
        assert_same_as_numpy(globals()[name], compiled(name), *args)
