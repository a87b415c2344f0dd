"""Windows whose start is a loop variable times and plus literals (tests/loops/test_lane_windows.py):
the CNN's 2x2 pooling (`x[:, 2 * i:2 * i + 2]`), a convolution's patch, windows with a stride
and an offset, one that runs off its axis (NumPy's shorter window), and a Jacobi sweep whose
loop stores into two arrays (the store-ordering selects)."""
import numpy as np


def max_pool2(x):
    c, h, w = x.shape
    out = np.zeros((c, h // 2, w // 2))
    for i in range(h // 2):
        for j in range(w // 2):
            out[:, i, j] = x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2].max(axis=(1, 2))
    return out


def strided_sums(x):
    n = (x.shape[0] - 1) // 3
    out = np.zeros(n)
    for i in range(n):
        out[i] = x[3 * i + 1:3 * i + 3].sum()
    return out


def rows_min(x):
    out = np.zeros((x.shape[0] // 2, x.shape[1]))
    for i in range(x.shape[0] // 2):
        out[i] = x[2 * i:2 * i + 2].min(axis=0)
    return out


def overhanging_sums(x):
    out = np.zeros(x.shape[0] // 2)
    for i in range(x.shape[0] // 2):
        out[i] = x[2 * i:2 * i + 3].sum()  # the last window runs off an even axis: 2 elements
    return out


def _sweep(cur, nxt, rhs):
    nxt[1:-1, 1:-1] = 0.25 * (cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:] + cur[1:-1, :-2]
                              + rhs[1:-1, 1:-1])
    interior = nxt[1:-1, 1:-1]
    interior *= 0.8


def sweeps(phi, rhs, steps):
    cur = phi
    nxt = phi.copy()
    nxt[0, :] = 0.0  # a store before the loop: the loop body touches nxt (store_order.py)
    for k in range(steps):
        _sweep(cur, nxt, rhs)
        cur, nxt = nxt, cur
    np.copyto(phi, cur)
    return nxt.sum()


def recurrence(x, y, a, b):
    y[0], y[1] = x[0], x[1]
    for n in range(2, x.shape[0]):
        y[n] = x[n] + a * y[n - 1] - b * y[n - 2]  # n - 1, n - 2 never negative: no wrap
    return y.sum()


def wrapping(x, y):
    for n in range(x.shape[0]):
        y[n - 3] = x[n - 1] * 2.0 + y[n - 2]  # negative at first: NumPy counts from the end
    return y
