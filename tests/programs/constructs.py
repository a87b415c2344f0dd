"""Small NumPy functions, one per construct, that tests/test_differential.py runs through
NumPy and np2ref with hypothesis-generated inputs."""

import numpy as np


def slice_store(a, start, stop, step, v):
    a[start:stop:step] = v


def slice_aug(a, start, stop, step, v):
    a[start:stop:step] += v


def fancy_store(a, idx, v):
    a[idx] = v


def fancy_aug(a, idx, v):
    a[idx] += v


def fancy_mul_2d(a, rows, cols, v):
    a[rows, cols] *= v


def add_at(a, idx, v):
    np.add.at(a, idx, v)


def min_max_at(a, idx, v):
    np.maximum.at(a, idx, v)
    np.minimum.at(a, idx, -v)


def add_at_2d(a, rows, cols, v):
    np.add.at(a, (rows, cols), v)


def mask_ops(a, b, t):
    m = a > t
    a[m] = b[m] * 2.0
    a[~m] *= 0.5
    return np.sum(a[m])


def view_chain(a, k):
    v = a[::-1]
    w = v[1:]
    w += k
    t = a.T
    t[0] = v[0]
    return v.sum()


def int_ops(a, b):
    a //= 3
    a %= 7
    a[1:] <<= 1
    a ^= b
    return a.sum()


def helper(x, s):
    x[0] = s
    return x


def caller(a, b):
    c = helper(a, 1.5)
    c[1] = 2.5
    helper(b[1:], a[0])
    return a.sum() + b.sum()
