"""Reductions of slices that move with the loop variable (tests/test_loop_reductions.py)."""

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
