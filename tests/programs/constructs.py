"""Small NumPy functions, one per construct, that tests/rules/test_differential.py runs through
NumPy and np2ref with hypothesis-generated inputs."""

import numpy as np


def slice_store(a, start, stop, step, v):
    a[start:stop:step] = v


def slice_aug(a, start, stop, step, v):
    a[start:stop:step] += v


def fancy_store(a, idx, v):
    a[idx] = v


def fancy_aug(a, idx, v):
    a[idx] += v


def fancy_mul_2d(a, rows, cols, v):
    a[rows, cols] *= v


def add_at(a, idx, v):
    np.add.at(a, idx, v)


def min_max_at(a, idx, v):
    np.maximum.at(a, idx, v)
    np.minimum.at(a, idx, -v)


def add_at_2d(a, rows, cols, v):
    np.add.at(a, (rows, cols), v)


def mask_ops(a, b, t):
    m = a > t
    a[m] = b[m] * 2.0
    a[~m] *= 0.5
    return np.sum(a[m])


def view_chain(a, k):
    v = a[::-1]
    w = v[1:]
    w += k
    t = a.T
    t[0] = v[0]
    return v.sum()


def int_ops(a, b):
    a //= 3
    a %= 7
    a[1:] <<= 1
    a ^= b
    return a.sum()


def helper(x, s):
    x[0] = s
    return x


def caller(a, b):
    c = helper(a, 1.5)
    c[1] = 2.5
    helper(b[1:], a[0])
    return a.sum() + b.sum()


def clamp_ends(u):
    u[0] = 0.0
    u[-1] = 0.0
    return u


def leapfrog(u0, c, steps):
    """`x = f(x)` where f returns its argument itself (corpus/wave1d_leapfrog): no rebinding."""
    u_prev = u0.copy()
    u = u0.copy()
    u_next = np.zeros_like(u0)
    for k in range(steps):
        u_next[1:-1] = 2.0 * u[1:-1] - u_prev[1:-1] + c * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u_next = clamp_ends(u_next)
        u_next[1] += 0.01 * k
        u_prev, u, u_next = u, u_next, u_prev
    np.copyto(u0, u)
    return u_prev.sum() * c


# Helpers that do not return their parameter itself on every path: `w = f(w)` rebinds w.
def clamp_copy(u):
    u[0] = 0.0
    return u.copy()


def clamp_rebound(u):
    u[0] = 0.0
    u = u * 2.0
    return u


def clamp_two_paths(u, flip):
    u[0] = 0.0
    if flip:
        return u[::-1]
    return u


def clamp_falls_off(u, keep):
    u[0] = 0.0
    if keep:
        return u


def clamp_aug(u):
    u[0] = 0.0
    u += 1.0  # rebinds u when u holds a scalar
    return u


def smooth_with(kind, u0, steps, flag):
    u = u0.copy()
    w = np.zeros_like(u0)
    for k in range(steps):
        w[1:-1] = 0.5 * (u[2:] + u[:-2]) + k
        if kind == 0:
            w = clamp_copy(w)
        elif kind == 1:
            w = clamp_rebound(w)
        elif kind == 2:
            w = clamp_two_paths(w, flag)
        elif kind == 3:
            w = clamp_falls_off(w, flag)
        else:
            w = clamp_aug(w)
        u, w = w, u
    return u.sum() + 2.0 * w.sum()


# Helpers that write one argument and read another: fresh allocations are never shared.
def damp(w, f):
    w *= f


def smooth_into(dst, src):
    dst[1:-1] = 0.5 * (src[2:] + src[:-2])


def damp_a_copy(u0):
    u = u0.copy()
    damp(u, 0.9)
    return u


def smooth_between_allocations(u0, scale):
    a = u0.copy()
    smooth_into(a, u0 + scale)
    b = np.zeros_like(u0)
    smooth_into(b, a * scale)
    damp(b, scale)
    return a.sum() + 2.0 * b.sum()


def smooth_into_itself(u):
    smooth_into(u, u)  # src read before dst is written: exact


def edge_into(dst, src):
    dst[1:-1] = 0.5 * (src[2:] + src[:-2])
    dst[0] = src[1]  # read after the store above: NumPy reads its own write when src is dst


def edge_into_itself(u):
    edge_into(u, u)  # NPR201 at trace time
