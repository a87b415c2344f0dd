"""Functions for tests/compile/test_compile.py."""

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
    global STEPS  # SCALE stays a constant: a function reading a global that changes is host code
    STEPS = 3


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


def sweep_rows(work, steps):
    """Two rows of one buffer written element by element in one loop (each gets its own ref
    for the loop), a reversed row read, and the whole buffer read after the loop."""
    b, d, r = work[1], work[3], work[0, ::-1]
    for k in range(steps):
        for i in range(1, b.shape[0]):
            m = r[i] / b[i - 1]
            b[i] -= m * 0.25
            d[i] -= m * d[i - 1]
    return work.sum()


def sweep_rows_and_base(work):
    """The loop also reads the whole buffer: the rows must stay views."""
    b, d = work[1], work[2]
    for i in range(1, b.shape[0]):
        b[i] += d[i - 1] + work[0, i]
        d[i] = b[i] * 0.5 + work[1, i - 1]


def sweep_overlapping_views(work):
    """Two views that share elements (row 1 and column 2): the rows must stay views."""
    b, col = work[1], work[:, 2]
    for i in range(1, work.shape[0]):
        b[i] += col[i - 1]
        col[i] -= b[i] * 0.5


def flat_first(u):
    v = u.reshape(-1)
    v[0] = 7.0


def shape_dependent_result(a):
    a += 1.0
    if a.shape[0] > 3:
        return a, a.shape[0]
    return a


def fill_first(a):
    a[0] = 2.0


def writes_into_none(u):
    v = fill_first(u)
    v[1] = 3.0
    return u


def scale_by(u, s=2.0, times=1):
    for _ in range(times):
        u *= s
    return u.sum()


def maybe_reset(u, w, flag):
    w *= 2.0
    if flag:
        u[...] = 0.0
    return u.sum()


def views_of_written(u, k):
    """Returns views of an argument it writes: NumPy's results share the caller's buffer."""
    u[:, 0] += 1.0
    row = u[1]
    return u[1:, ::2], u.T, row, u.reshape(-1)[::3], u[k], u[:, 1].copy()


def gives_true(x):
    return x * 2, True


def gives_one(x):
    return x * 3, 1


def same_twice(a, s):
    a[0] = 1.0
    b = a[1:]
    c = a * 2
    return b, b, c, c, s, s


def reads_a_tuple(a, t):
    a += 1
    return t[0].sum()


def accumulate_into_default(x, acc=np.zeros(3)):
    acc += x
    return acc


def weighted_counts(counts, idx, w):
    """np.add.at of float weights into an int (or float32) histogram: NumPy casts back after
    every element."""
    np.add.at(counts, idx, w)
    return counts.sum()
