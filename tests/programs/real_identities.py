"""Identities of real numbers XLA's simplifier applies that floats break beyond the last bit:
ln(exp(A)) => A, ln(pow(A, B)) => B * ln(|A|), exp(A) * exp(B) => exp(A + B), exp(A) / exp(B) =>
exp(A - B), sqrt(A * A) => |A|. Each program counts what NumPy's overflow, NaN or zero
decides. tests/dtypes/test_real_identities.py runs each against NumPy."""

import numpy as np


def finite_log_weights(x):
    return np.isfinite(np.log(np.exp(x))).sum()


def log_of_a_power(x):
    r = np.log(x ** 1.5)
    return np.isnan(r).sum(), r


def overflowing_products(a, b):
    return np.isinf(np.exp(a) * np.exp(b)).sum()


def ratio_of_weights(a, b):
    return np.exp(a) / np.exp(b)


def radii_that_overflow(y):
    return (np.sqrt(y * y) > 1e300).sum(), np.isinf(np.sqrt(y ** 2)).sum()


def log_likelihood_in_a_loop(x, steps):
    bad = 0
    for _ in range(steps):
        bad += np.isinf(np.log(np.exp(x))).sum()
        x = x * 2.0
    return bad


def count_valid(x):
    return (np.abs(x) >= 0.0).sum(), (np.abs(x) < 0.0).sum()


def doubled_and_halved(x):
    return np.isinf(x * 2.0 / 2.0).sum()


def signs_of_a_shifted_zero(x):
    """`x + 0.0` turns NumPy's -0.0 into 0.0; XLA (and StableHLO's folds) drop the add."""
    return np.signbit(x + 0.0).sum(), (np.arctan2(x + 0.0, -1.0) > 0).sum()
