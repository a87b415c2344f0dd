"""Loops with a data-dependent `break` (tests/loops/test_early_exit.py)."""

import numpy as np


def first_above(x, t):
    k = -1
    for i in range(x.shape[0]):
        if x[i] > t:
            k = i
            break
    return x[k] * 2.0, k


def count_until(x, hits):
    n = 0
    for i in range(x.shape[0]):
        if x[i] < 0:
            continue
        hits[i] = 1
        n += 1
        if n == 3:
            break
    return n


def sum_until(x, t):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] > t:
            break
        s += x[i] * x[i]
    return s
