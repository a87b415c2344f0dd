"""Programs that write their arguments before and after a run-time check that fails
(tests/host/test_arguments_after_errors.py); loaded through conftest.program, so that pytest
does not rewrite their asserts."""

import numpy as np


def indexed(x, y, n, k):
    for i in range(n):
        y[i] = 2.0 * x[i]
        x[i] += x[k + i]
        y[0] += 1.0


def asserted(x, y, n, t):
    y[...] = -1.0
    for i in range(n):
        x[i] *= 3.0
        assert x[i] < t, "too big"
        y[i] = x[i]


def raised(x, y, n, t):
    for i in range(n):
        x[i] += 1.0
        if x[i] > t:
            raise ValueError("too big")
        y[i] = x[i]


def divided(x, y, n):
    for i in range(n):
        y[i] = float(x[i]) / float(x[i + 1] - 3.0)
        x[i] = y[i] * 2.0


def inverted(a, b, c):
    b[...] = a.sum()
    m = np.linalg.inv(a * c)
    a[...] = m


def cast(x, a, n):
    for i in range(n):
        a[i] = x[i]
        x[i] = 0.0


def unbound(x, y):
    for i in range(x.shape[0]):
        x[i] += 1.0
        if x[i] > 2.0:
            last = x[i] * 2.0
        y[i] = last  # unbound until an element above 2


def in_a_while(x, y, k):
    i = 0
    while x[0] < 20.0:
        y[i] = x[0]
        x[0] += x[k + i]
        i += 1
