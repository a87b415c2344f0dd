"""Names a data-dependent branch or loop may leave unbound (tests/python/test_unbound_names.py)."""

import numpy as np


def branch(x):
    if x[0] > 0:          # traced: lax.cond
        y = x * 2
    return y + 1


def elif_chain(x):
    if x[0] > 1:
        y = x[1]
    elif x[0] > 0:
        z = x[2]
        y = z * 2
    return y


def loop_branch(x):
    for i in range(x.shape[0]):   # a lax loop
        if x[i] > 5:
            m = x[i]
    return m


def short_loop(x):
    for i in range(3):    # a Python loop; the `if` in it is traced
        if x[i] > 5:
            m = x[i]
    return m


def while_never(x):
    i = 0
    while x[i] > 0:
        z = x[i]
        i += 1
    return z


def in_body(x, out):
    for i in range(x.shape[0]):
        if x[i] > 0:
            last = x[i]
        out[i] = last     # unbound until the first positive element
    return out


def accumulate(x):
    if x[0] > 0:
        s = x[1] * 2.0
    s += 1.0
    return s


def helper(v):
    if v[0] > 0:
        w = v * 3
    return w


def calls_helper(x):
    return helper(x) + helper(x[::-1])


def loop_target(x, n):
    for i in range(n):
        x[i] = 1.0
    return i


def bound_everywhere(x):
    if x[0] > 0:
        y = x * 2
    else:
        y = x * 3
    for i in range(x.shape[0]):
        t = x[i] * 2
        x[i] = t
    if x[1] > 0:
        u = x[0] * 2.0
    u = 5.0
    return y + u


def captured(x):
    if x[0] > 0:
        y = x * 2

    def f():
        return y + 1
    return f()


def unbound_then_branch(x):
    for i in range(x.shape[0] - 3):    # no iteration for 3 elements: m stays unbound
        if x[i] > 0:
            m = x[i]
    y = x[1]
    if x[0] > 5:                        # traced: Python raises only when it runs
        y = m + 1
    return y


def loop_target_traced(x):
    n = np.count_nonzero(x > 0)        # a trip count read from data
    for i in range(n):
        x[i] = 1.0
    return i


def first_error(x, idx, out):
    for i in range(x.shape[0]):
        if x[i] > 0:
            last = x[i]
        out[idx[i]] = last    # Python reads `last` (UnboundLocalError) before the index
    return out
