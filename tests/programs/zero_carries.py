"""Carries that start at the Python 0.0 and add values that may be -0.0 (tests/dtypes/test_zero_carries.py)."""

import numpy as np


def negated_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * -1.0
    return s


def plain_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s = s + x[i]
    return s


def while_sum(x):
    s, i = 0.0, 0
    while i < x.shape[0]:
        s += x[i]
        i += 1
    return s


def float32_sum(x):
    y = x.astype(np.float32)
    s = np.float32(0.0)
    for i in range(y.shape[0]):
        s += y[i]
    return s
