"""A time loop's clipped step, `dt = min(dt, t_end - t); t += dt`, with t starting as the Python
float 0.0 (shallow_water_rusanov's solve, scripts10): NumPy's t is the Python float while every
step so far was the Python number `t_end - t`, and np.float64 from the first trip that picked the
NumPy scalar. Two wrong types since the carried kinds (rt/carried_kinds.py, session 12), each
failing here on main 603ab9e (int13 before this change: the first):
- with a store beside it (`u[1] -= dt`), the loop's Refs are lifted into its state and its body
  traced as copies with new closures, each taken for a first trace: the carry stayed weakly typed,
  a Python number, so the result took the last pick's kind (np.float64(0.05) came back 0.05);
- `t + dt` of two values each noted Python-or-NumPy by its flag was noted neither: NumPy's
  np.float64 where both were Python floats (0.05 came back np.float64(0.05)).
And `t = t + dt` read again after the pick (`t_end - t`): picks.npr_either noted t once more,
without its flag, over the loop's note (0.000001 came back np.float64). Python's number where both
operands are, NumPy's scalar otherwise (promotion._npr_both_chosen)."""

import numpy as np
import pytest

from tests.conftest import assert_returns_as_numpy


def clipped(q, t_end):
    t = 0.0
    n = 0
    while t < t_end and n < 100:
        dt = 0.3 / q.max()
        dt = min(dt, t_end - t)
        t += dt
        n += 1
    return t, n


def clipped_beside_a_store(q, t_end):
    t = 0.0
    while t < t_end:
        dt = min(q[0], t_end - t)
        q[1] -= dt
        t += dt
    return t


def clipped_by_a_helper(q, t_end, max_steps=400):
    t = 0.0
    n = 0
    while t < t_end and n < max_steps:
        dt = 0.45 * 0.0125 / (np.abs(q).max() * 20)
        dt = min(dt, t_end - t)
        q[0] -= dt
        t = t + dt
        n += 1
    return t, n, q[0]


def counted_by_a_pick(k, cap):
    used = 0
    i = 0
    while used < cap and i < k.size:
        take = min(k[i], cap - used)
        k[i] -= take
        used += take
        i += 1
    return used, i


CASES = {
    "clipped": (clipped, [0.05, 1.0, -1.0]),
    "clipped_beside_a_store": (clipped_beside_a_store, [0.0005, 0.0015, 0.0025, 0.05, -1.0]),
    "clipped_by_a_helper": (clipped_by_a_helper, [0.05, 1e-6, 0.0]),
}


@pytest.mark.parametrize("name", CASES)
def test_a_clipped_step_keeps_numpys_kind(name):
    fn, ends = CASES[name]
    for t_end in ends:
        assert_returns_as_numpy(fn, lambda: (np.array([0.001, 1.0, 3.0]), t_end))


@pytest.mark.parametrize("cap", [0, 2, 5, 100])
def test_an_int_taken_by_a_pick_keeps_numpys_kind(cap):
    """Python ints against np.int64 items: `used` a Python int while the cap was taken, np.int64 once an item was."""
    assert_returns_as_numpy(counted_by_a_pick, lambda: (np.array([3, 1, 4], dtype=np.int64), cap))


def test_the_data_gives_both_kinds():
    """(else a test above could not fail)"""
    kinds = {type(clipped_beside_a_store(np.array([0.001, 1.0, 3.0]), e)) for e in (0.0005, 0.0015)}
    assert kinds == {float, np.float64}


def delay_line_scaled(x):
    a = b = c = 0.0
    for i in range(x.shape[0]):
        c = b * 2.0
        b = a
        a = x[i]
    return c, b


def delay_line_while(x):
    a = c = 0.0
    i = 0
    while x[i] > 0:
        c = a * 2.0
        a = x[i]
        i += 1
    return c, i


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_a_value_computed_from_another_carried_value_takes_its_kind(n):
    """`c = b * 2.0` with b a delay line's: NumPy's c is np.float64 from the trip b took x[i]. The first
    trace of the body saw b weakly typed (the Python 0.0 it starts as), so c too, and c was taken for a
    Python float on every path (np.float64(6.0) returned as 6.0; fails on main 5c387a5 for n >= 2). A
    later trace, with b flagged, checks it (carried_kinds._NprKindPaths.check) and the loop is typed
    once more with c flagged. Walking the trace's equations back instead (session 13, reverted) took a
    lax.cond's every operand for a source (`n += 1` after a `continue`: rejected_leaps refused)."""
    x = np.arange(1.0, n + 1.0)
    assert_returns_as_numpy(delay_line_scaled, lambda: (x.copy(),))
    assert_returns_as_numpy(delay_line_while, lambda: (np.append(x, -1.0),))
