"""Ordinary Python around NumPy code (issue 19), for tests/test_python_surface.py (a module of
its own: pytest rewrites the asserts of test modules)."""

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
