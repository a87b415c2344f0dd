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


def conv_relu_at(x, w, b):
    """A 3x3 convolution (valid) + bias + ReLU as tutorials write it: one output position at a
    time, x (C, H, W), w (K, C, 3, 3)."""
    k, c, kh, kw = w.shape
    h, wd = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((k, h, wd))
    for i in range(h):
        for j in range(wd):
            patch = x[:, i:i + kh, j:j + kw]
            out[:, i, j] = np.sum(w * patch, axis=(1, 2, 3)) + b
    return np.maximum(out, 0.0)


def max_pool2(x):
    """2x2 max pooling, stride 2, one output position at a time."""
    c, h, w = x.shape
    out = np.zeros((c, h // 2, w // 2))
    for i in range(h // 2):
        for j in range(w // 2):
            out[:, i, j] = x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2].max(axis=(1, 2))
    return out


def cnn_forward(x, w1, b1, w2, b2, wf, bf):
    """A small CNN's forward pass on one image: two conv + ReLU + max-pool stages, a dense
    layer, softmax."""
    a = max_pool2(conv_relu_at(x, w1, b1))
    a = max_pool2(conv_relu_at(a, w2, b2))
    z = wf @ a.reshape(-1) + bf
    e = np.exp(z - z.max())
    return e / e.sum()
