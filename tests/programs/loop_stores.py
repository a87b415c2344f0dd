"""Stores in loops whose index is the loop variable (tests/loops/test_loop_stores.py): data-dependent
`if`s whose branches store one region, element reads after element stores."""

import numpy as np


def branch_same_element(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            if A[i, j] > 0:
                L[i, j] = A[i, j] * 2.0
            else:
                L[i, j] = -A[i, j]
    return L


def branch_one_side(x):
    for i in range(x.shape[0]):
        if x[i] < 0:
            x[i] = 0.0


def branch_negative_index(x, y):
    n = x.shape[0]
    for i in range(n):
        k = i - n
        if x[i] > 0:
            y[k] = x[i]
        else:
            y[k] = -1.0


def branch_rows(A):
    for i in range(A.shape[0]):
        if A[i, 0] > 0:
            A[i, :] *= 2.0
        elif A[i, 0] < -0.5:
            A[i, 1:] -= 1.0
        else:
            A[i, :] = 0.0


def branch_two_stores_and_read(x, y):
    for i in range(x.shape[0]):
        if x[i] > 0:
            y[i] = 1.0
            y[i] += x[i]
            x[i] = y[i] * 3.0
        else:
            y[i] = y[i] - 1.0


def branch_int_into_float(x, c):
    for i in range(x.shape[0]):
        if x[i] > 0:
            c[i] = 3
        else:
            c[i] += x[i]


def branch_other_index(x, y, p):
    for i in range(x.shape[0]):
        if x[i] > 0:
            y[p[i]] = x[i]
        else:
            y[i] = -x[i]


def symmetric(d):
    M = d.shape[1]
    c = np.zeros((M, M))
    for i in range(M):
        for j in range(i, M):
            c[i, j] = (d[:, i] * d[:, j]).sum()
            c[j, i] = c[i, j]
    return c


def read_other_after_store(x, p):
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        x[i] = x[i] * 2.0
        out[i] = x[p[i]]
    return out


def negative_after_store(x):
    n = x.shape[0]
    out = np.zeros_like(x)
    for i in range(n):
        x[i - n] = -x[i]
        out[i] = x[i] + x[i - n]
    return out


def element_move(u, tmp):
    n, m = u.shape
    for i in range(n):
        for j in range(m):
            u[i, j] = tmp[i, j]
            tmp[i, j] = 0.0


def element_chain(f, k, c, b):
    """Stores into four arrays of four dtypes in turn, each after one into another array (each
    store is made to depend on the previous one: rt/store_order.py _npr_after), values with NaN,
    inf and -0.0 read across them."""
    n = f.shape[0]
    for i in range(n):
        for j in range(f.shape[1]):
            k[i, j] = k[i, j] * 2 + i
            c[i, j] = c[i, j] * f[i, j]
            f[i, j] = -f[i, j]
            b[i, j] = f[i, j] > 0
            f[i, j + 1 - f.shape[1]] = k[i, j]
    return f.sum()


def shifted_slices(x, y, z):
    n = x.shape[0]
    for k in range(n):
        z[k + 1:] = x[k + 1:] + y[k:-1] * 2.0
        z[:k] -= x[1:k + 1]
    return x[1:] @ y[:-1]


def shifted_products(x, y, B):
    n = x.shape[0]
    out = np.zeros(n)
    for k in range(n):
        out[k] = x[k + 1:] @ y[k:-1]
        B[k:, k:] += np.outer(x[k:], y[:n - k])
        B[k, k + 1:] = B[k + 1:, k] * -1.0
    return out


def window_sums(x, xi):
    n = x.shape[0]
    out = np.zeros(n)
    outi = np.zeros(n, dtype=xi.dtype)
    for i in range(n):
        out[i] = x[i:i + 3].sum()
        outi[i] = xi[i:i + 4].sum()
        out[i] += x[i - 2:i + 1].sum() * 2.0
    return out, outi


def macroscopic(f):
    return f * 2.0, f.sum()


def fresh_each_trip(f, n):
    for t in range(n):
        u, s = macroscopic(f)  # a new array each trip, written, read after the loop
        u[0] = s
        f[1:] = u[:-1] * 0.25
    return u


def fresh_after_a_default(f, n):
    u = np.zeros(4)
    for t in range(n):
        u, s = macroscopic(f)
        u[-1] += s
        f[:-1] = u[1:] * 0.5
    return u, f


def fresh_then_written_after(f, n):
    u = np.zeros(4)
    for t in range(n):
        u = f * 2.0
        u[0] = t
    u[1] = -1.0  # written after the loop: u stays a Ref, and the loop a Python loop
    return u


def fresh_after_continue(f, n):
    for t in range(n):
        if t == 0:
            continue  # the first trip binds nothing: u may be unbound at a trip's end
        u = np.zeros_like(f)
        u[...] += t
    f[...] = u.max()
    return f
