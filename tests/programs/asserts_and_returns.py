"""Ordinary Python around NumPy code (issue 19), for tests/python/test_asserts_and_returns.py (a module of
its own: pytest rewrites the asserts of test modules)."""

import itertools

import numpy as np


def asserts(x):
    x[0] = 5.0
    d = x.sum()
    assert d != 0
    assert np.all(x > 0), "x must be positive"
    return x * 2


def assert_many(x):
    assert x > 0
    return x


def float_default_size(u, a=0.37):
    return np.zeros(int(a * 10)) + u.sum()


def dead_random(u):
    if 0:
        np.random.seed(0)
    if False:
        u = u + np.random.rand()
    else:
        u = u + 1
    return u


def repeat_loop(u, n):
    for _ in itertools.repeat(None, n):
        u = u * 2
    return u


def _returns_in_branch(x):
    if x[0] > 0:
        return x * 2
    return x


def _clip_step(x, i):  # issue 19's helper: an early return on array data, called in a loop
    if x[i] > 0:
        return x[i]
    return 0.0


def _graded(v):
    if v > 4:
        return v - 4
    elif v < -4:
        w = v + 4
        return w
    else:
        if v == 0: return 1.0  # noqa: E701
    v = v * 3
    return v


def early_returns(x):
    s = 0.0
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        s += _clip_step(x, i)
        out[i] = _graded(x[i] * 2)
    return out + s


def _returns_other_type(x):
    if x[0] > 0:
        return x[0]
    return 0.5  # x int64: np.int64 or a Python float, by the data


def returns_other_type(x):
    return _returns_other_type(x) * 2


def _falls_off(x):
    if x[0] > 0:
        return x * 2
    x[1] = 2.0  # this path returns None


def return_left_as_written(x):
    return _falls_off(x)


def return_in_helper_branch(u):
    return _returns_in_branch(u)


def product_loops(a):
    n, m = a.shape
    for i, j in itertools.product(range(n), range(m)):
        a[i, j] = a[i, j] * 2 + i - j
    s = 0.0
    for p, q in itertools.product(range(n), repeat=2):
        if p == q:
            continue
        s += a[p, 0] * a[q, 1]
    return a * s


def integer_tests(x):
    c = 0
    if float(x[2]).is_integer():
        c = 1
    return np.array([float(x[0]).is_integer(), x[1].is_integer(), c == 1])


def growing_history(x):
    hist = np.zeros(0)
    while x[0] < 3:
        x[0] += 1
        hist = np.append(hist, x[0])
    return hist


def scalar_becomes_array(x):
    acc = 0.0
    while x[0] < 3:  # no iteration for x[0] >= 3: NumPy returns the float 0.0
        x[0] += 1
        acc = acc + x
    return acc


def while_window(u):
    i = 0
    while u[i] > 0:
        u[0] = u[i] + u[i:i + 2].sum()
        i += 1
    return u
