"""Third-party-style NumPy kernels for benchmarks/suite.py: written as NumPy users write them
(not for np2ref), the originals that np2ref.compile translates."""

import numpy as np


def matvec_chain(A, x):
    """(A @ x) @ A: two passes over a large read-only matrix."""
    return (A @ x) @ A


def cg_products(A, r, p):
    """The two matrix-vector products of a conjugate-gradient-style step."""
    return r @ A, A @ p


def two_matvecs(A, B, x, alpha, beta):
    return alpha * A @ x + beta * B @ x


def jacobi_(u, steps):
    """A 5-point Jacobi sweep on a 2-D grid, `steps` times, in place (boundary fixed)."""
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2])


def diagonal_tanh(a):
    """A Python loop over the diagonal, then an elementwise use of the sum."""
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def column_stats(x):
    """Reductions: per-column RMS over the column's maximum magnitude."""
    return np.sqrt((x * x).mean(axis=0)) / np.abs(x).max(axis=0)


def small_poly(x):
    return 3.0 * x ** 3 - 2.0 * x + 1.0


def small_axpy_(y, a, x):
    y += a * x


def small_norm(x, y):
    d = x - y
    return np.sqrt(np.dot(d, d))


def conv_relu(x, w):
    """A 3x3 convolution layer (valid padding) with ReLU, by shifted windows: x (C, H, W),
    w (K, C, 3, 3)."""
    k, c, kh, kw = w.shape
    h, wd = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((k, h, wd))
    for i in range(kh):
        for j in range(kw):
            out += np.tensordot(w[:, :, i, j], x[:, i:i + h, j:j + wd], axes=1)
    return np.maximum(out, 0.0)
