"""Programs for tests/masks/test_masked_extremes.py, tests/python/test_math_module.py and
tests/rules/test_copies_and_index_tuples.py (issue 19): masked reductions, math-module functions
on traced floats, traced indices into an empty axis."""

import math

import numpy as np


# ---- masked reductions ---------------------------------------------------------------------
def masked_extremes(x, h):
    top = x[x > h].max()
    low = np.min(x[x > h])
    return top, low, np.max(x[x < 2 * h]), np.amin(x[x < 2 * h])


def masked_flags(x, h):
    return x[x > h].any(), x[x > h].all(), np.any(x[x < h]), np.all(x[x < h])


def masked_int_extremes(k):
    return k[k % 2 == 1].max(), k[k % 2 == 1].min(), np.max(k[k > 100])


def masked_max_in_a_loop(x, n):
    out = np.zeros(n)
    for i in range(n):
        out[i] = x[x > i].max()
    return out


def masked_mean(x, h):
    return x[x > h].mean()


def masked_kept(x):
    vals = x[x > 0]
    return vals.max(), vals * 2


def masked_named(x, edges):
    neg = x[x < 0]
    res = np.zeros(edges.size - 1)
    for i in range(edges.size - 1):
        vals = x[(edges[i] <= x) & (x < edges[i + 1])]
        res[i] = vals.mean() + np.sum(vals)
    x[:] = 0.0
    return res, neg.min(), np.max(neg)


def masked_complex_max(z):
    return z[z.real > 0].max()


def masked_nan_max(x, h):
    return x[~(x <= h)].max(), x[~(x <= h)].min()


def masked_min(x, h):
    return x[x > h].min()


# ---- math-module functions on traced floats ------------------------------------------------
def math_on_floats(x, T):
    s = math.sqrt(T)
    y = x * s + math.exp(-T) + math.log(T) * math.sin(T) + math.atan2(T, 2.0) + math.cos(math.pi * T)
    return y, s, math.tanh(T) + math.log1p(T) + math.fabs(-T) + math.copysign(T, -1.0)


def math_in_a_loop(x, n):
    out = np.zeros(n, dtype=x.dtype)
    for i in range(n):
        out[i] = math.sqrt(x[i]) + math.log10(x[i] + 1)
    return out


def math_errors(x, T, which):
    if which == 0:
        return x * math.sqrt(T - 1.0)
    if which == 1:
        return x * math.log(T)
    if which == 2:
        return x * math.exp(T)
    return x * math.acos(T)



# ---- found by the fuzzer: a traced index into an empty axis ----------------------------------
def read_empty_axis(b, i):
    return b[i]


def read_written_empty_axis(b, i):
    b[2:0:-1] -= 4.5
    _ = b[i]
    return b
