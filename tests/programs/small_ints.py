"""Small integer dtypes, Python ints out of their range, Python floats passed in, Python
scalars returned (tests/dtypes/test_small_ints.py)."""

import numpy as np


def by_value(u, i):  # NumPy 2 compares a Python int out of range by its value, clips by it, wraps in where
    return (np.less(u, 300), np.greater_equal(i, -129), np.equal(u, -1), np.less(1000, i),
            np.clip(u, -5, 300), i.clip(3, 300), np.where(u > 3, u, 300), np.where(i > 3, -1, i),
            np.round(i, -1), np.around(u, -2))  # NumPy rounds integers in float64, casts back


def floordiv_300(x):
    return x // 300


def mod_300(x):
    return x % 300


def divmod_300(x):
    return divmod(x, 300)


def floordiv_minus_one(x):
    return x // -1


def element_iadd_300(x):  # a NumPy scalar's `s += 300` rebinds: NumPy's OverflowError too
    s = x[0]
    s += 300
    return s


def full_like_300(x):
    return np.full_like(x, 300)


def half_powers(x, p):  # NumPy's square root for an exponent 0.5 of one element
    return x ** p, np.power(x, 0.5), x ** np.float64(0.5), np.power(x, np.array([0.5])), x ** np.float32(2.0)


def masked_float_stores(a, b, c, v):  # floats into small integers: x86's wraparound, not saturation
    m = v > -1000
    a[m] = v[m] * -1
    b[m] = v[m] * 3
    c[m] = v[m] - 70000


def element_accumulate(x, y):  # a NumPy scalar: `s += ...` rebinds it, with NumPy's result type
    s = x[0]
    s += y[0]
    t = x[1]
    for i in range(2):
        t *= y[i]
    return s, t


def step(x, dt):  # dt a Python float: Python's ZeroDivisionError; a NumPy scalar: inf
    r = 1.0 / dt
    x[...] = x * r + 2.0 % dt
    return x


def python_results(x):
    n = int(x[0])
    k = 0
    for i in range(x.shape[0]):
        k += i
    return n * 2, x.sum(), float(x[1]) / 2, len(x), k


def loop_ints(x, y, z):  # the loop's i is a Python int: compared by value, OverflowError beyond the range
    c = 0
    for i in range(300):
        c += int((x < i).sum())
    for i in range(y.shape[0]):
        y[i] = i * 100
    m = z > 0
    for i in range(2):
        z[m] = i + 254
    return c
