"""Programs that print around a run-time check that fails (tests/host/test_prints_after_errors.py);
loaded through conftest.program, so that pytest does not rewrite their asserts."""

import numpy as np


def indexed(x, n, k):
    print("start", n)
    for i in range(n):
        print("trip", i, x[i])
        x[0] += x[k + i]
        print("done", i)
    print("end", x[0])


def asserted(x, n, t):
    for i in range(n):
        print("trip", i)
        assert x[i] < t, "too big"
        x[i] += 1.0
        print("done", i, x[i])
    print("end")


def raised(x, n, t):
    for i in range(n):
        print("trip", i)
        if x[i] >= t:
            raise ValueError(f"too big at {i}")
        print("done", i)
    print("end")


def divided(x, n):
    s = 1.0  # (0.0 + -0.0 is 0.0 in Python; XLA folds `0.0 + v` to v: -0.0)
    for i in range(n):
        print("trip", i)
        s += float(x[i]) / float(x[i + 1] - 3.0)
        print("done", i, s)
    return s


def nested(x, n, k):
    for t in range(3):
        print("outer", t)
        for i in range(n):
            print("inner", t, i)
            x[1] += x[k + i + t]
        print("outer done", t)


def _helper(x, j):
    print("helper", j)
    x[0] += x[j]
    print("helper done", j)


def through_a_helper(x, n, k):
    for i in range(n):
        _helper(x, k + i)
        print("back", i)


def while_data(x, k):
    i = 0
    while x[0] < 100.0:
        print("trip", i)
        x[0] += x[k + i]
        i += 1
        print("done", i)
    print("end", i)


def drawn_in_advance(x, n, rng, k):
    for i in range(n):
        u = rng.random()
        print("trip", i, u)
        x[0] += x[k + i]
        v = rng.normal()
        print("done", i, v)

