"""The loop patterns of issue 18, as third-party kernels write them (benchmarks/loops_issue18.py);
the windowed sum, correlation, LU and Cholesky are loop_kernels.py's."""

import numpy as np

from loop_kernels import cholesky, correlation, lu, windowed_sum  # noqa: F401


def conv2d(x, w):
    C, H, W = x.shape
    K = w.shape[0]
    out = np.zeros((C, H - K + 1, W - K + 1))
    for i in range(H - K + 1):
        for j in range(W - K + 1):
            out[:, i, j] = (x[:, i:i + K, j:j + K] * w).sum(axis=(1, 2))
    return out


def durbin(r):
    n = r.shape[0]
    y = np.zeros(n)
    z = np.zeros(n)
    y[0] = -r[0]
    beta = 1.0
    alpha = -r[0]
    for k in range(1, n):
        beta = (1 - alpha * alpha) * beta
        s = r[k - 1::-1] @ y[:k]                 # a slice with a step, moving with k
        alpha = -(r[k] + s) / beta
        z[:k] = y[:k] + alpha * y[k - 1::-1]
        y[:k] = z[:k]
        y[k] = alpha
    return y


def forward_subst(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def stencil5(u):
    n, m = u.shape
    out = np.zeros_like(u)
    for i in range(2, n - 2):
        for j in range(2, m - 2):
            s = 0.0
            for di in range(-2, 3):
                for dj in range(-2, 3):
                    s += u[i + di, j + dj]
            out[i, j] = s / 25
    return out


def fdtd(ex, ey, hz, fict):
    nx, ny = ex.shape
    for t in range(fict.shape[0]):
        for j in range(ny):
            ey[0, j] = fict[t]
        for i in range(1, nx):
            for j in range(ny):
                ey[i, j] -= 0.5 * (hz[i, j] - hz[i - 1, j])
        for i in range(nx):
            for j in range(1, ny):
                ex[i, j] -= 0.5 * (hz[i, j] - hz[i, j - 1])
        for i in range(nx - 1):
            for j in range(ny - 1):
                hz[i, j] -= 0.7 * (ex[i, j + 1] - ex[i, j] + ey[i + 1, j] - ey[i, j])


def skip_negative(x):
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        if x[i] < 0:
            continue
        out[i] = np.sqrt(x[i]) + out[i - 1]
    return out


def ndindex_map(a):
    out = np.zeros_like(a)
    for i, j in np.ndindex(a.shape):
        out[i, j] = a[i, j] * 2 + a[j % a.shape[0], i % a.shape[1]]
    return out


def clamp_stencil(u):
    n, m = u.shape
    out = np.zeros_like(u)
    for i in range(n):
        for j in range(m):
            out[i, j] = (u[max(i - 1, 0), j] + u[min(i + 1, n - 1), j]
                         + u[i, max(j - 1, 0)] + u[i, min(j + 1, m - 1)]) / 4
    return out


def search(x, t):
    k = -1
    for i in range(x.shape[0]):
        if x[i] > t:
            k = i
            break
    return k


def running_mean(x, w):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.mean(x[max(i - w, 0):i + 1])
    return out
