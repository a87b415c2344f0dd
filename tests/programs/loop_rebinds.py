"""A name that holds a written array (a parameter, written in place) rebound to another array
inside a loop that becomes a lax loop (issue 37 case 1), and loop targets rebound in their own
body (issue 44): tests/loops/test_loop_rebinds.py runs each against NumPy."""

import numpy as np

L = 10.0


def wrap_mod(y, v, n):
    for i in range(n):
        y += v
        y = y % 10
    return y


def wrap_expr(y, v, n):
    for i in range(n):
        y *= 1.5
        y = y - v
    return y


def wrap_int(y, n):
    for i in range(n):
        y += 3
        y = y % 7
    return y


def wrap_2d(y, v, n):
    for i in range(n):
        y[0] += v[0]
        y += v
        y = np.where(y > 2.0, y - 4.0, y)
    return y


def two_names(x, p, v, n):
    for i in range(n):
        x += v
        p -= x
        x = x % 3.0
        p = p * 0.5
    return x.sum() + p.sum()


def wrap(p):
    p %= L
    return p


def wrap_helper_same(y, v, n):
    for i in range(n):
        y += v
        y = wrap(y)
    return y


def wrap_new(p):
    return p % L


def wrap_helper_new(y, v, n):
    for i in range(n):
        y += v
        y = wrap_new(y)
    return y


def fold_pair(a, b):
    """Writes both arguments and returns them as themselves (a boundary helper)."""
    a[a > L] -= L
    b[0] = 0.0
    return a, b


def wrap_pair(y, z, v, n):
    """Both names rebound each trip to fresh arrays through the helper's tuple."""
    for i in range(n):
        y += v
        y_new = y * 0.5 + z
        z_new = z - v
        y, z = fold_pair(y_new, z_new)
    return y, z


def split_wrap(p, v):
    q = p + v
    return q % L, q // L


def wrap_tuple_new(y, v, n):
    """Rebound to the first item of a new tuple (no argument returned), the count carried too."""
    laps = np.zeros_like(y)
    for i in range(n):
        y += 0.5 * v
        y, k = split_wrap(y, v)
        laps += k
    return y, laps


def wrap_in_branch(y, v, n):
    for i in range(n):
        y += v
        if y.sum() > 12.0:
            y = y % 5.0
    return y


def wrap_write_after(y, v, n):
    for i in range(n):
        y += v
        y = y % 10
    y[0] = -1.0
    return y.sum()


def wrap_read_old(y, v, n):
    total = 0.0
    for i in range(n):
        y += v
        z = y
        y = y % 10
        total += z.sum()
    return total, z


def wrap_view(y, v, n):
    for i in range(n):
        y += v
        y = y[::-1]
    return y


def wrap_while(y, v, T):
    t = 0.0
    while t < T:
        y += v * 0.5
        y = y % 10
        t += 0.5
    return y


def wrap_traced_range(y, v, k):
    for i in range(int(k.sum())):
        y += v
        y = y % 10
    return y


def zip_rebind(a):
    for r1, r2 in zip(a, a):
        r1 = r1[::-1]


def target_rebind(a, n):
    s = 0.0
    for i in range(n):
        i = i * 2
        s += a[i % a.shape[0]]
    return s


def rows_rebind(a):
    s = np.zeros(a.shape[1])
    for r in a:
        r = r * 2
        s += r
    return s


def enumerate_rebind(a):
    s = 0.0
    for i, r in enumerate(a):
        r = r[::-1]
        s += r[0] * i
    return s


def rows_rebind_write(a, out):
    for r in a:
        r = r * 2
        r[0] = -1.0
        out += r
    return out.sum()


def enumerate_rebind_write(a, out):
    for i, r in enumerate(a):
        r = r.copy()
        r[0] = i
        out[i] = r.sum()


def zip_both_rebind(a, b):
    s = 0
    for r1, r2 in zip(a, b):
        r1 = r1[::-1]
        r2 = r2 + r1
        s += r2[0]
    return s


def target_rebind_after(a, n):
    s = 0.0
    for i in range(n):
        i = i * 2
        s += a[i % a.shape[0]]
    return s, i


def wrap_alias_new(y, v, n):
    w = v.copy()
    for i in range(n):
        y += v
        y = y % 10
        w[0] += y[0]
        w = y
        w[0] += 1.0
    return y, w


def wrap_while_helper(y, v, T):
    t = 0.0
    while t < T:
        y += v
        y = wrap(y)
        t += 0.5
    return y


def wrap_pair_while(y, z, v, T):
    t = 0.0
    while t < T:
        y += v
        y, z = fold_pair(y * 0.5 + z, z - v)
        t += 0.5
    return y, z


def wrap_while_written(y, v, T):
    t = 0.0
    while t < T:
        y[0] += 1.0
        y += v
        y = y % 10
        t += 0.5
    return y
