"""Reduced reproducers from scientific kernels in the style of third-party simulation codes
(particle-in-cell, cell lists, lattice Boltzmann, histograms, filters...) that np2ref answered
wrongly, refused without cause or failed on before: tests/third_party/test_science.py runs each
against NumPy."""
import numpy as np


def wrapped_cells(pos, box, ncell):
    w = pos - box * np.floor(pos / box)  # XLA:CPU made this one FMA: -1.7e-16 where NumPy has 0.0
    return w, (w * ncell / box).astype(np.int64)  # ... and the cell -1 where NumPy's is 0


def crossings(x, y, z, t):
    n = 0
    for i in range(x.shape[0]):
        if x[i] * y[i] + z[i] >= t:  # a scalar `a * b + c` that decides: no FMA either
            n += 1
    return n, np.floor(x * y - z)


def negated_products(a, b, c):
    return np.floor(-(a * b) + c)  # one FMA (fnmadd) too


def trapezoid_either(y, dx):
    integrate = np.trapz if hasattr(np, "trapz") else np.trapezoid  # `np` as a value: a ValueError
    return integrate(y, dx=dx)


def running_mean(x, N):
    c = np.cumsum(np.insert(x, 0, 0))  # np.insert was refused (NPR004)
    return (c[N:] - c[:-N]) / float(N)


def insert_variants(a, m, v, k):
    return (np.insert(a, k, 1.5),  # an int array: NumPy's cast of 1.5, 1
            np.insert(a, -1, v),  # a traced value, cast to a's dtype
            np.insert(m, 1, [7, 8], axis=1), np.insert(m, 0, v, axis=0), np.insert(m, 2, 9))


def insert_at_data(a, i):
    return np.insert(a, a[i], 0)
