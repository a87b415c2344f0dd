"""A draw NumPy gives as a Python number (`rng.random()`, `rng.exponential(2.0)`,
`np.random.randint(3)`, `np.random.rand()`) promotes as one: `x32 * rng.random()` is float32 and
`h8 + np.random.randint(3)` int8. The translation drew the value on the host and noted it to be
returned as a Python number, but computed with it as a strongly typed float64/int64 scalar, so
the products came back float64/int64 and `type(t).__name__` read 'float64' (scripts7's
`gillespie_ssa`). The draw is weakly typed now, in a single call (rt/host.npr_random) and in a
loop's draws made in advance (rt/draws.NprDraws.take); a name a draw feeds (`t += rng.exponential(s)`)
is returned as a Python number when its traced value is weakly typed, as a parameter's is
(rules/pyscalars.DRAWN, rules/pyreturns.py: `t` came back np.float64).
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, result_types


def products(x, h, rng):
    return x * rng.random(), x * rng.exponential(2.0), h + rng.integers(3), rng.random()


def legacy(x, h):
    np.random.seed(5)
    return x * np.random.rand(), h + np.random.randint(3), np.random.randint(4)


def in_loop(x, rng, n):
    last = x
    kind = ""
    for _ in range(n):
        t = rng.exponential(0.5)
        last = x * t
        kind = type(t).__name__
    return last, kind


def waiting_time(rng, n):  # a Python float carried by the loop: NumPy returns a float
    t = 0.0
    for _ in range(n):
        t += rng.exponential(0.5)
    z = rng.normal(size=2)
    return t, z, z.sum()


def _args(fn):
    x, h = np.linspace(0.5, 1.5, 4, dtype=np.float32), np.arange(4, dtype=np.int8)
    return {products: (x, h, np.random.default_rng(1)), legacy: (x, h),
            in_loop: (x, np.random.default_rng(2), 4), waiting_time: (np.random.default_rng(3), 5)}[fn]


@pytest.mark.parametrize("fn", [products, legacy, in_loop, waiting_time])
def test_python_number_draws_promote_as_python_numbers(fn):
    want = fn(*_args(fn))
    got = np2ref.compile(fn, host_below=0)(*_args(fn))
    assert result_types(got) == result_types(want)
    for g, w in zip(got, want):
        assert_numpys_bits(g, w)
