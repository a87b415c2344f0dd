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


def windowed_sum(x, w):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = x[i:i + w].sum()  # the last w - 1 windows are shorter (NumPy clips)
    return out


def lu(A):
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])


def cholesky(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = L[i, :j] @ L[j, :j]
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L


def correlation(d):
    M = d.shape[1]
    c = np.eye(M)
    for i in range(M - 1):
        for j in range(i + 1, M):
            c[i, j] = (d[:, i] * d[:, j]).sum()
            c[j, i] = c[i, j]
    return c
