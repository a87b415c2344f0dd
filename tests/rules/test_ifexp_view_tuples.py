"""`l, r = (u[1:], u[:-1]) if c else (u[:-1], u[1:])`: each name is a view of `u`, as in a plain
tuple assignment, so it sees later writes to `u` and writes through it reach `u`. The
translation bound copies (npr_own of loads): reads after a write to `u` were stale and writes
through the names were lost (rewrite/rules/stores._target). A data-dependent condition stays
NPR128. Found by tests/third_party/scripts6/view_rebind_writes.py."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def read_after_write(u, flag):
    left, right = (u[1:], u[:-1]) if flag else (np.zeros(4), u[1:])
    u[0] = 5.0
    u[1] = 7.0
    left += 1
    return left.sum() + 10 * right.sum()


def write_through(u, flag):
    a, b = (u[1:], u[:-1]) if flag else (u[:-1], u[1:])
    a[0] = -3.0
    b[1] += 2.0
    return u


def rebound_in_loop(u, steps):
    v, left, right = u[1:-1], u[:-2], u[2:]
    for s in range(steps):
        v += 0.2 * (left - 2.0 * v + right)
        if s % 3 == 2:
            v, left, right = (u[2:-2], u[1:-3], u[3:-1]) if v.shape[0] == u.shape[0] - 2 else \
                (u[1:-1], u[:-2], u[2:])
    return u.sum()


@pytest.mark.parametrize("fn", [read_after_write, write_through])
@pytest.mark.parametrize("flag", [True, False])
def test_names_bound_from_a_conditional_tuple_are_views(fn, flag):
    assert_same_as_numpy(fn, np2ref.compile(fn), np.arange(5.0), flag)


def test_views_rebound_from_a_conditional_tuple_in_a_loop():
    assert_same_as_numpy(rebound_in_loop, np2ref.compile(rebound_in_loop), np.sin(np.arange(11.0)) + 1.0, 10)


def test_a_data_condition_choosing_views_is_refused():
    def pick(u, x):
        a, b = (u[1:], u[:-1]) if x.sum() > 0 else (u[:-1], u[1:])
        u[0] = 5.0
        return a.sum() + b.sum()

    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(pick)(np.arange(5.0), np.ones(2))
    assert info.value.diagnostics[0].code == "NPR128"
