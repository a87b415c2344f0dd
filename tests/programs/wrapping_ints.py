"""Signed integer squares and absolute values after they wrap (tests/dtypes/test_wrapping_ints.py):
XLA takes `x * x` and `abs(x)` of signed integers for non-negative and folds what follows;
NumPy's squares wrap and abs(INT_MIN) is INT_MIN."""

import numpy as np


def operators(x):
    s = x * x
    return x * x < 0, s >= 0, abs(x * x), (x * x) // 8, x ** 2 < 0, abs(x) < 0, abs(x) // 4


def ufuncs(x):
    return (np.square(x) < 0, np.abs(x) < 0, np.absolute(x) >= 0, np.multiply(x, x) < 0,
            np.power(x, 2) < 0, np.abs(np.multiply(x, x)), np.power(x, x & 3) % 8, np.power(x, 2) // 8,
            np.sign(x * x), np.sign(np.square(x)), np.sign(x))


def squared_out(b):
    c = b.copy()
    for k in range(3):
        np.multiply(b, b, out=b)
    np.square(c, out=c)
    return (c < 0) | (b < 0)


def squared_in_place(a, b, c):
    a[...] *= a[...]
    b[1:] **= 2
    c[c != 0] *= c[c != 0]
    return a < 0, b < 0, c < 0


def squared_on_a_name(x):
    n = 0
    for i in range(x.shape[0]):
        s = x[i]
        s *= s
        if s < 0:
            n += 1
    return n


def products(x):
    y = x.reshape(2, 4)
    return (np.einsum("i,i->i", x, x) < 0, np.dot(y, y.T), np.einsum("ij,ij->i", y, y),
            np.outer(x, x) < 0, np.convolve(x, x) < 0)


def matmul_squares(x):
    s = x.reshape(-1, 1, 1)
    return (s @ s) < 0, np.matmul(s, s) < 0


def window_squares(x, k):
    n = int(k[0])
    w = x[:n]
    return np.sum((w * w) < 0), np.sum(abs(w) < 0), np.sum(w ** 2 < 0)
