"""Kernels of the shapes whose default route was the slower one in issue 39's NPBench run
(softmax, durbin, contour_integral, trisolv, fdtd_2d), written as NPBench's NumPy versions
write them, at sizes near its S preset, plus a few that sit at the cost model's edges (a short
loop of BLAS calls, a long elementwise chain, a small call). Used by benchmarks/route_choice.py."""

import numpy as np


def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def softmax_rows(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        e = np.exp(x[i] - x[i].max())
        out[i] = e / e.sum()
    return out


def durbin(r):
    y = np.empty_like(r)
    alpha = -r[0]
    beta = 1.0
    y[0] = -r[0]
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y


def trisolv(L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]


def fdtd_2d(ex, ey, hz, fict):
    for t in range(fict.shape[0]):
        ey[0, :] = fict[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


def contour_integral(Ham, int_pts, Y):
    NR, NM = Y.shape
    slab_per_bc = Ham.shape[0] - 1
    P0 = np.zeros((NR, NM), dtype=np.complex128)
    P1 = np.zeros((NR, NM), dtype=np.complex128)
    for idx in range(int_pts.shape[0]):
        z = int_pts[idx]
        Tz = np.zeros((NR, NR), dtype=np.complex128)
        for n in range(slab_per_bc + 1):
            zz = np.power(z, slab_per_bc / 2 - n)
            Tz += zz * Ham[n]
        X = np.linalg.solve(Tz, Y)
        P0 += X
        P1 += z * X
    return P0, P1


def gemv_loop(A, x):
    for _ in range(5):
        x = A @ x
        x = x / np.abs(x).max()
    return x


def chain(x):
    return np.sqrt(np.abs((1.0 / (x + 2.0) + 1.0) * 2.0 - x)) + np.sin(x) * np.cos(x)


def small(x):
    return x * 2.0 + 1.0


def inputs(name, rng):
    """The NumPy arguments of kernel `name`."""
    if name == "softmax":
        return (rng.random((16, 16, 128, 128), dtype=np.float32),)
    if name == "softmax_rows":
        return (rng.standard_normal((256, 512)),)
    if name == "durbin":
        return (rng.random(1000) * 0.1,)
    if name == "trisolv":
        n = 2000
        L = np.tril(rng.random((n, n))) + n * np.eye(n)
        return L, np.zeros(n), rng.random(n)
    if name == "fdtd_2d":
        return rng.random((200, 220)), rng.random((200, 220)), rng.random((200, 220)), rng.random(20)
    if name == "contour_integral":
        NR, NM, slab = 50, 150, 2
        Ham = rng.random((slab + 1, NR, NR)) + 1j * rng.random((slab + 1, NR, NR))
        pts = np.exp(2j * np.pi * np.arange(32) / 32) * (1.0 + 0.1 * rng.random(32))
        return Ham, pts, rng.random((NR, NM)) + 1j * rng.random((NR, NM))
    if name == "gemv_loop":
        return rng.random((1500, 1500)), rng.random(1500)
    if name == "chain":
        return (rng.random(1_000_000),)
    if name == "small":
        return (rng.random(100),)
    raise KeyError(name)


NAMES = ("softmax", "softmax_rows", "durbin", "trisolv", "fdtd_2d", "contour_integral", "gemv_loop", "chain", "small")
