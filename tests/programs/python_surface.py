"""Ordinary Python around NumPy code (issue 19), for tests/test_python_surface.py (a module of
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


def return_in_helper_branch(u):
    return _returns_in_branch(u)
