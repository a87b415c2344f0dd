"""Floor division and remainder on arrays, where jax.numpy's results differ from NumPy's: an
integer divided by zero (NumPy 0, jax.numpy -1 or the largest unsigned value) and the sign of a
zero quotient or remainder (tests/dtypes/test_division.py)."""

import numpy as np


def floordiv_operator(a, b):
    return a // b, b // a


def floordiv_in_place(a, b):
    q = a.copy()
    q //= b
    a[1:] //= b[1:]
    return q


def floordiv_functions(a, b):
    q, r = np.divmod(a, b)
    q2, r2 = divmod(a, b)
    return np.floor_divide(a, b), np.remainder(a, b), np.mod(b, a), q, r, q2, r2


def bucket_counts(idx, width):
    # an index divided by a width read from data: zero widths give bucket 0, as in NumPy
    counts = np.zeros(4, dtype=np.int64)
    for i in range(idx.shape[0]):
        b = idx[i] // width[i]
        counts[b % 4] += 1
    return counts


def floordiv_by_literal(a):
    # on a float array a literal divisor too: `-4.0 % 2` is 0.0 in NumPy, -0.0 in jax.numpy
    y = a * 1.0
    y %= 2
    return a // 2, a // -3, a % 5, y, divmod(a, 2.0)


def integer_index_arithmetic(x):
    # integers by positive literals stay operators: exact in jax.numpy
    n = x.shape[0]
    out = np.zeros(n // 2)
    for i in range(n // 2):
        out[i] = x[(i * 3) % n] + x[n - 1 - i // 2]
    return out + len("%d" % n)
