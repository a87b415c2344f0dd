"""Integer powers and signs where jax.numpy's results differ from NumPy's (tests/dtypes/test_powers.py)."""

import numpy as np


def power_of_arrays(k, e):
    # NumPy raises ValueError for an integer to a negative integer power; jax.numpy gives garbage
    return k ** e, np.power(k, e)


def power_in_a_loop(k, e):
    out = np.zeros(k.shape[0], dtype=np.int64)
    for i in range(k.shape[0]):
        out[i] = k[i] ** e[i]
    return out


def float_powers(x, e, n):
    return x ** e, x ** n, 2 ** n, e ** 2, np.power(x, e)


def signs(x):
    return np.sign(x), np.sign(-x)


def power_in_place(k, e):
    y = k.copy()
    y **= e
    k[1:] **= e[1:]
    return y
