"""Snippets in the style of third-party NumPy code that np2ref answered wrongly (or refused with
a raw JAX error) before: tests/third_party/test_snippets.py runs each against NumPy."""
import math

import numpy as np


def running_max_from_minus_inf(x):
    best = -np.inf  # a Python float, then NumPy's scalar of x's dtype: refused on integer data
    for i in range(len(x)):
        if x[i] > best:
            best = x[i]
    return best


def running_max_from_zero(x):
    best = 0  # a Python int beside x's dtype: x's dtype (int32 stays int32; it was int64)
    for i in range(len(x)):
        if x[i] > best:
            best = x[i]
    return best


def running_max_from_minus_one(x):
    best = -1  # uint8 cannot hold -1: refused (a uint8 carry would give 255 when nothing is bigger)
    for i in range(len(x)):
        if x[i] > best:
            best = x[i]
    return best


def decayed_sum_from_zero(x):
    acc = 0.0  # float32 data: float32 arithmetic, as NumPy (it was float64)
    for i in range(len(x)):
        acc = acc * 0.5 + x[i]
    return acc


def index_with_a_list(x):
    order = [3, 1, 2]
    return x[order], x[[True, False, True, False]]


def reductions_of_lists(x):
    return (np.sum([1, 2, 3]), np.max([1.5, x[0], 2.0]), np.min((3, 1, 2)), np.argmax([x[1], x[0]]),
            np.prod([2, x[1]]), np.any([x[0] > 1, False]), np.count_nonzero([0, 1, 2]))


def closeness(a, b):
    return np.allclose(a, b), np.array_equal(a, b), np.array_equiv(a, b[0]), np.array_equal(a, b[:1])


def peak_to_peak_method(x):
    return x.ptp()  # NumPy 2 removed the method


def reciprocal_by_power(a):
    return a ** -1


def bisection(c, lo, hi):
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if np.polyval(c, mid) * np.polyval(c, lo) > 0:
            lo = mid
        else:
            hi = mid
    return mid, lo


def integrate_time(y, t0, t1, n):
    h = (t1 - t0) / n
    t = t0
    for _ in range(n):
        y = y + h * np.cos(t) * y
        t += h
    return y, t


def shape_and_dtype(x):
    return x.shape, x.ndim, x.dtype, (x * 2).dtype


def store_scalar(a, v):
    a[0] = v
    a[1:] = v
    return a


def running_max_from_none(x):
    m = None
    for v in x:
        if m is None or v > m:
            m = v
    return m


def running_min_from_none(x):
    m = None
    for i in range(len(x)):
        if m is None or x[i] < m:
            m = x[i]
    return m


def first_above_from_none(x):
    m = None
    i = 0
    while x[i] < 0.9 and i < len(x) - 1:
        m = x[i]
        i += 1
    return m


def complex_extremes(z, zz):
    return (np.argmax(z), np.argmin(z), z.argmax(), np.argmax(zz, axis=1),
            np.argmin(zz, axis=0, keepdims=True), np.var(z), np.std(zz, axis=0))


def layout_read(x):
    return x.strides[0] // x.itemsize


def copies_in_order(x):
    a = x.T.copy(order="F")
    b = np.copy(x, order="F")
    c = np.asfortranarray(x)
    return a.sum(axis=0) + b.sum(axis=1) + c[:, 0]


def products_of_shapes(x):
    n = np.prod(x.shape)
    sizes = [x.shape[0], 3]
    dims = (2, x.shape[-1])
    return x * n + np.prod(sizes) - np.sum(dims)


def min_and_index_by_enumerate(x):
    m = None
    k = -1
    for i, v in enumerate(x):
        if m is None or v < m:
            m = v
            k = i
    return m, k


def peak_position(x):
    r, c = np.unravel_index(np.argmax(x), x.shape)
    return r, c, x[r, c]


def coordinates_and_back(x, k, order):
    rows, cols = np.unravel_index(k, x.shape, order=order)
    return rows, cols, np.ravel_multi_index((rows, cols), x.shape, order=order), x[rows, cols]


def flat_index_of(x, i, j):
    return np.ravel_multi_index((i, j), x.shape)


def first_index_above_from_none(x):
    best = None
    for i in range(x.shape[0]):
        if best is None and x[i] > 0.5:
            best = i
    return best


def half_moments(x, m):
    return (np.var(x), np.std(x, axis=0), np.var(x, ddof=1, axis=1, keepdims=True), np.std(x, where=m),
            x.std(), np.std(x, axis=(0, 1), keepdims=True))


def count_close(a, b, rel, tol):
    n = 0
    for i in range(a.shape[0]):
        if math.isclose(a[i], b[i], rel_tol=rel, abs_tol=tol):
            n += 1
    return n, math.isclose(a[0], b[0]), math.isclose(a[1], b[1], abs_tol=tol)
