"""Loop kernels for benchmarks/loops.py: the NumPy originals, as legacy code writes them."""

import numpy as np


def recurrence(x, a):
    y = np.zeros_like(x)
    for i in range(1, x.shape[0]):
        y[i] = a * y[i - 1] + x[i]
    return y


def gauss_seidel(u, f, h2):
    n = u.shape[0]
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - h2 * f[i, j])
