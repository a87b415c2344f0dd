"""A carry that starts at the Python 0.0 and adds a value that may be -0.0 (tests/dtypes/test_zero_carries.py)."""

import numpy as np


def negated_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * -1.0
    return s
