"""Programs for tests/python/test_scalar_math.py: builtins max/min on two traced scalars, the rest of
the math module on traced floats, lambdas defined in a loop body, mean of an empty masked read."""
import math

import numpy as np


def running_extremes(x):
    m = x[0]
    lo = x[0]
    for i in range(x.shape[0]):
        v = x[i]
        m = max(m, v)
        lo = min(v, lo)
    a = x[1]
    b = x[2]
    return m, lo, max(a, b, m), min(a, b)


def math_rounding(x, T):
    out = np.zeros(4, dtype=np.int64)
    out[0] = math.floor(T)
    out[1] = math.ceil(T)
    out[2] = math.trunc(T)
    n = math.floor(x[1] * 3.0)
    out[3] = n + 1
    return out, x[math.trunc(T) % x.shape[0]]


def math_two_args(x, T, U):
    out = np.zeros(5)
    out[0] = math.pow(T, U)
    out[1] = math.hypot(T, U)
    out[2] = math.fmod(T, U)
    out[3] = math.atan2(T, x[0])
    out[4] = math.copysign(x[1], T)
    return out


def math_tests(x):
    flags = np.zeros((x.shape[0], 3), dtype=bool)
    for i in range(x.shape[0]):
        flags[i, 0] = math.isnan(x[i])
        flags[i, 1] = math.isinf(x[i])
        flags[i, 2] = math.isfinite(x[i])
    return flags


def lambda_in_loop(x, n):
    for k in range(n):
        scale = 0.5 + k
        f = lambda v: v * scale + k
        x[:] = f(x)
    return x


def lambda_in_loop_rebound_after(x, n):
    out = np.zeros(n)
    for k in range(n):
        c = 1.0
        g = lambda v: v + c
        c = 2.0 + k  # rebound after the lambda: Python's late binding reads this value
        out[k] = g(x[k % x.shape[0]])
    return out


def empty_masked_mean(x, t):
    return np.mean(x[x > t]), x[x > t].mean()


def math_errors(x, T, U, which):
    if which == 0:
        x[0] = math.pow(T, U)
    elif which == 1:
        x[0] = math.fmod(T, U)
    else:
        x[0] = math.floor(T) + math.ceil(U)
    return x


def lambda_called_after_loop(x, n):
    for k in range(n):
        f = lambda v: v * k
    return f(x)


def lambda_called_before_def(x, n):
    for k in range(n):
        if k > 0:
            x = f(x)
        f = lambda v: v * 2
    return x


def lambda_in_branch(x, c):
    if c > 0:
        f = lambda v: v + 1
        x = f(x)
    return x


def def_in_loop_writes_capture(x, n):
    out = np.zeros(n)
    for k in range(n):
        s = 0.5 * k

        def acc(i):
            out[i] = x[i] * k + s
        acc(k)
        g = lambda v: v * 2
        out[k] = g(out[k])
    return out
