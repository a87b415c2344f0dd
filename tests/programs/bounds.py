"""Kernels whose indices may be out of range: NumPy raises IndexError (tests/rt/test_bounds.py)."""
import numpy as np


def diff_at(u, i):  # i: a Python int (static) or a NumPy integer (traced)
    return u[i + 1] - u[i]


def read(u, c):
    return u[c]


def read2(a, i, j):
    return a[i, j]


def gather(u, idx):
    return u[idx].sum()


def shift_loop(u):
    n = len(u)
    out = np.zeros(n)
    for i in range(n):
        out[i] = u[i + 1]
    return out


def offsets(u, lo, k):
    """The loop variable plus a literal (`u[i - 2]`): decided from the loop's range when it
    fits the axis (negative indices counting from the end included), else checked."""
    n = len(u)
    out = np.zeros(n)
    for i in range(lo, n - 1):
        out[i] = u[i + 1] + u[i - 2] * 2.0 + u[i + 2 - 1 - 1]
    for i in range(n):
        out[i] += u[i - k]
    return out


def scan_until(u):
    i = 0
    while u[i] > 0:
        i += 1
    return i


def deposit(h, idx, w):
    np.add.at(h, idx, w)


def store(u, i, v):
    u[0] = -1.0  # NumPy has written this when u[i] raises; np2ref writes nothing back
    u[i] = v


def scatter_add(u, idx, v):
    u[idx] += v


def put(u, idx, v):
    np.put(u, idx, v)


def two_reads(u, i, j):
    return u[i] + 10 * u[j]


def helper(u, k):
    return u[k] * 2.0


def calls_helper(u, k, out):
    out[0] = helper(u, k)


def branch_store(u, out, k):
    if u[0] > 0:
        out[k] = 1.0
    else:
        out[0] = 2.0


def take(a, idx):
    return np.take(a, idx, axis=1)


def take_along(a, idx):
    return np.take_along_axis(a, idx, axis=1)


def choose(a, b, c):
    return np.choose(a, [b, c])


def literal_reads(u, a):
    return u[0] + u[-1] + u[1:-1].sum() + a[:, 2].sum() + a.shape[1]


def overrun(u):
    s = 0.0
    for i in range(len(u) + 1):  # the loop variable's range does not fit the axis: checked
        s += u[i]
    return s


def diag(a, k):
    return a[k, k] + a[k, 0]
