"""Functions for tests/test_compile.py."""

import numpy as np

SCALE = 2.0


def step(u, alpha):
    u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return u.sum()


def two_writers(a, b):
    a[0] = 1.0
    b[0] = a[0] + 1.0


def reader_and_writer(a, b):
    a[:] = b * SCALE


def returns_arg(u):
    u *= 2.0
    return u


def raises_midway(u, k):
    u[0] = 99.0
    if k > 0:
        raise ValueError("k must not be positive")
    return u


def sized(n, fill):
    out = np.zeros(n)
    out[::2] = fill
    return out


def gen(u):
    yield u


def uses_global(u):
    global SCALE
    SCALE = 3.0


def loss_like(x, w):
    y = x.copy()
    y[1:] += w * x[:-1]
    return np.sum(y * y)


def damp_until_small(u, limit):
    """A data-dependent `if` inside a data-dependent `while`, both writing `u`."""
    k = 0
    while k < 20 and np.abs(u).max() > limit:
        if u.sum() > 0:
            u[:] = u * 0.5
        else:
            u[0] += 1.0
        k += 1
    return k


def relax_with_scratch(p, b, nt, nit):
    """A scratch copy made inside a time loop (`pn[:] = p`), as in pressure-Poisson solvers;
    JAX 0.10.2 transposes such loop bodies wrongly unless np2ref discharges them."""
    energy = np.zeros(nt)
    for n in range(nt):
        pn = np.empty_like(p)
        for q in range(nit):
            pn[:] = p
            p[1:-1] = (pn[2:] + pn[:-2]) * 0.5 - b[1:-1]
        energy[n] = np.sum(p * p)
    return energy


def table_lookup(x, table):
    """`int()` of array data as an index."""
    total = 0.0
    for i in range(x.shape[0]):
        total += table[int(x[i]) % 4]
    return total


def row_into_column(a, j):
    """A row copied into a column of the same array: NumPy copies element by element, so the
    element where they cross is read after it is written."""
    a[:, j] = a[1, :]


def shifted_copy(u):
    u[1:] = u[:-1]
    u[:, 0] = u[0, :].T


def scaled_copy(a):
    """`w op= v` on a name bound to a new array: in place, so w keeps a's dtype (float32 here)."""
    w = a * 2
    w += np.arange(a.size).reshape(a.shape) * 0.5
    return w


def multiply_at(a, idx, b):
    """np.multiply.at with a duplicate index: both factors apply."""
    np.multiply.at(a, idx, b)
