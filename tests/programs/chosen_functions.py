"""Module functions chosen inside a compiled function, then passed on to a helper that calls
them through its parameter (a limiter picked by a flag, a list of right-hand sides): the
pattern of a MUSCL script (examples/scripts/burgers_muscl_minmod.py)."""
import numpy as np


def minmod(a, b):
    return np.where(a * b > 0.0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def maxmin(a, b):
    return np.maximum(0.0, np.minimum(a, b)) + np.minimum(0.0, np.maximum(a, b))


def doubles_in_place(a, b):
    a *= 2.0
    return a + b


def slopes(u, limiter):
    return limiter(u[2:] - u[1:-1], u[1:-1] - u[:-2])


def by_ifexp(u, flag):
    limiter = maxmin if flag else minmod
    u[1:-1] += slopes(u, limiter)
    return u.sum()


def by_if(u, flag):
    if flag:
        limiter = maxmin
    else:
        limiter = minmod
    u[1:-1] -= 0.5 * slopes(u, limiter)
    return u.max()


def by_tuple(u):
    total = 0.0
    for limiter in (minmod, maxmin):
        total += np.sum(slopes(u, limiter))
    return total


def chosen_writer(u, flag):
    f = doubles_in_place if flag else minmod
    return slopes(u, f)


def reverse_all(t, i):
    t[:] = t[::-1]


def negate_at(t, i):
    t[i] = -t[i]


def called_chosen(t, idx, whole):
    flip = reverse_all if whole else negate_at
    for k in range(idx.shape[0]):
        if t[k] > 0:
            flip(t, idx[k])
    return t.sum()


def called_by_if(t, idx, whole):
    if whole:
        flip = reverse_all
    else:
        flip = negate_at
    for k in range(idx.shape[0]):
        flip(t, idx[k])


def called_from_tuple(t, idx):
    for flip in (negate_at, reverse_all):
        flip(t, idx[0])
    return t
