"""Reductions of slices that move with the loop variable (tests/loops/test_loop_reductions.py)."""

import numpy as np


def means(x):
    out = np.zeros((x.shape[0], 3))
    for i in range(x.shape[0]):
        out[i, 0] = np.mean(x[i:])              # shorter every iteration
        out[i, 1] = x[i - 3:].mean()            # a negative start, counted from the end
        out[i, 2] = x[max(i - 2, 0):i + 1].mean()
    return out


def extremes(x):
    out = np.zeros((x.shape[0], 3))
    for i in range(x.shape[0]):
        out[i, 0] = x[:i + 1].max()
        out[i, 1] = x[i:i + 3].min()            # ragged at the end
        out[i, 2] = x[i:].max() - x[:i + 1].min()
    return out


def block_stats(A):
    n = A.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = A[i:, i:].mean() + A[:i + 1, i].max()
    return out


def running_max_empty(x):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = x[:i].max()                    # empty at i = 0: NumPy raises ValueError
    return out


def step_reads(x):
    out = np.zeros(x.shape[0] + 4)
    for i in range(-3, x.shape[0] + 1):         # negative and out-of-range starts
        out[i + 3] = x[i::2].sum() + 10 * x[i:i + 5:3].sum() + 100 * x[i::-2].sum() + 1000 * x[:i:-1].sum()
    return out


def step_window(x, w):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = x[i:i + 2 * w:2].sum() + x[i::-1].max()
    return out


def step_stores(x, y):
    for i in range(-2, 3):
        x[i::2] = y[i::2] * 2
        x[i + 1::-2] -= x[i + 1::-2] * 0.5
        x[:i:-3] *= 2.0
    return x


def durbin(r):
    n = r.shape[0]
    y = np.zeros(n)
    z = np.zeros(n)
    y[0] = -r[0]
    beta = 1.0
    alpha = -r[0]
    for k in range(1, n):
        beta = (1 - alpha * alpha) * beta
        s = r[k - 1::-1] @ y[:k]
        alpha = -(r[k] + s) / beta
        z[:k] = y[:k] + alpha * y[k - 1::-1]   # a traced scalar times a slice of traced length
        y[:k] = z[:k]
        y[k] = alpha
    return y


def conv2d(x, w):
    C, H, W = x.shape
    K = w.shape[0]
    out = np.zeros((C, H - K + 1, W - K + 1))
    for i in range(H - K + 1):
        for j in range(W - K + 1):
            out[:, i, j] = (x[:, i:i + K, j:j + K] * w).sum(axis=(1, 2))
    return out


def view_windows(x):
    v = x[1:]                                   # a view: its windows are x's, one further on
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = v[i:i + 3].sum() + v[i - 2:].mean()
    return out
