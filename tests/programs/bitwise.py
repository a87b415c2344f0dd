"""Elementwise kernels whose jitted float results XLA:CPU rounds differently from NumPy by
default (a fused multiply-add, a division by a constant turned into a multiplication), for
tests/dtypes/test_bitwise.py."""

import numpy as np


def fma(a, b, c):
    return a * b + c


def divide_by_constant(a):
    return a / 9.0


def diffuse(u, v, alpha):
    """In place, the kind of update a migrated stencil has: both rewrites, and a write-back."""
    u[1:-1] += alpha * (v[2:] - 2.0 * v[1:-1] + v[:-2]) / 9.0


def fast_powers(a, p):
    """NumPy's fast_scalar_power: `a ** 2.0` is a * a, `a ** -1.0` 1 / a (and np.power's), not
    pow, which XLA computes otherwise where no simplifier makes it a multiply (`p`: traced)."""
    return a ** 2.0, a ** -1.0, np.power(a, 2.0), a ** p
