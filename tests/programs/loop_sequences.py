"""zip/enumerate over values Python evaluates once (tests/test_loop_sequences.py)."""

import numpy as np


def enumerate_copy(a):
    for k, v in enumerate(a.copy()):       # the copy is made once: later writes do not reach it
        a[(k + 1) % a.shape[0]] += v
    return a


def enumerate_expr(a):
    for k, v in enumerate(a * 2, 1):
        a[-1] += v * k
    return a


def zip_reversed(a, b):
    for v, w in zip(b[::-1], reversed(range(1, 5))):
        a[w % a.shape[0]] += v * w
    return a


def zip_reversed_expr(a, n):
    for i, j in zip(range(n), reversed(range(n if n > 2 else 2))):
        a[i] += j
    return a
