"""A `while` whose test draws (`while rng.random() < 0.9:`) over a written array: on main the
test's first value was drawn twice when the loop lifted its Refs into loop state (npr_while
evaluated the test again in the lifted loop), so the loop ran one trip fewer than NumPy's and the
generator ended one draw further on. Now the lifted loop takes the value already drawn
(npr_while's `first=`)."""

import numpy as np
import pytest

from exactly import run_both


def grow_while_drawn(rng, x):
    while rng.random() < 0.9:
        x *= 1.01
    return x


def grow_counted(rng, x):
    hist = np.zeros(100)
    n = 0
    while rng.random() < 0.9 and n < 100:
        x *= 1.01
        hist[n] = x.sum()
        n += 1
    return x, n


@pytest.mark.parametrize("fn", [grow_while_drawn, grow_counted])
@pytest.mark.parametrize("seed", [3, 11])
def test_a_drawing_test_draws_once_a_trip(fn, seed):
    run_both(fn, np.random.default_rng(seed), np.ones(3))
