"""zip/enumerate over values Python evaluates once (tests/loops/test_loop_sequences.py)."""

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


def fdtd(ex, ey, hz, fict):
    nx, ny = ex.shape
    for t in range(fict.shape[0]):
        for j in range(ny):                     # `for j` loops one after another, some nested:
            ey[0, j] = fict[t]                  # each reads its own j
        for i in range(1, nx):
            for j in range(ny):
                ey[i, j] -= 0.5 * (hz[i, j] - hz[i - 1, j])
        for i in range(nx):
            for j in range(1, ny):
                ex[i, j] -= 0.5 * (hz[i, j] - hz[i, j - 1])
        for i in range(nx - 1):
            for j in range(ny - 1):
                hz[i, j] -= 0.7 * (ex[i, j + 1] - ex[i, j] + ey[i + 1, j] - ey[i, j])


def last_j(a):
    j = -1
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] += i * j
    return a, j                                 # the value the loops leave
