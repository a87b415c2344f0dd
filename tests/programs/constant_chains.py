"""Sums, differences and products with constants, one after another, whose values decide: XLA's
simplifier takes `(x + c1) + c2` as `x + (c1 + c2)` (one rounding where NumPy rounds twice).
tests/dtypes/test_constant_chains.py runs each against NumPy."""

import numpy as np

OFFSET = 0.7
SCALE = np.array([0.1, 0.3, 0.7, 1.1])


def cells_of_a_sum(x):
    return (x + 0.1 + 0.7).astype(np.int64)


def cells_of_a_product(x):
    return (x * 0.1 * 30.0).astype(np.int64)


def mask_of_a_fraction(x, out):
    out[(x + 0.1 + 0.7) - np.floor(x) >= 0.8] = 1.0
    return out


def floor_of_module_constants(x):
    return np.floor(x * 0.1 + OFFSET + 0.2)


def constant_arrays(x):
    y = x.reshape(-1, 4) * SCALE * 3.0
    return y.round().astype(np.int32)


def chain_in_a_loop(x, steps):
    count = np.zeros(x.shape, dtype=np.int64)
    for _ in range(steps):
        x = x - 0.1 - 0.2
        count += x > 0.0
    return count


def values_only(x):
    return x + 0.1 + 0.7
