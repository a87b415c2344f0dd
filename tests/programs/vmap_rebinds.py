"""Programs whose name is, after a loop or branch on data, the caller's array in some calls and
a new array in others (rt/rebinds.py): tests/vmap_rebind/test_vmap_rebinds.py runs each plain,
jitted, under jax.vmap (members that take either way in one batch) and jax.grad."""

import numpy as np


def while_where(a):  # tests/regressions/fuzz_40c22768c2.py
    c5 = 0
    while c5 < 1 and a.sum() > 0:
        a = np.where(a > 2, a - 4, a)
    a[...] *= 2


def while_shrink(a):
    while a.sum() > 0:
        a = a - 3.0
    a[...] *= 2.0
    return a.sum()


def while_write_first(a, t):
    while a.max() > t:
        a += 1.0
        a = a * 0.5
    a[0] = -1.0


def while_returned(a):
    while a.sum() > 0:
        a = a - 3.0
    a[1:] += 1.0
    return a


def while_alias_before(a):
    b = a
    while a.sum() > 0:
        a = a - 3.0
    a[...] *= 2.0
    return b.sum()


def while_two_params(a, b):
    while a.sum() > b.sum():
        a = a * 0.5
    a += b
    return b.sum()


def while_view_write(a):
    while a[0] > 1.0:
        a = a / 2.0
    a[1:] += 1.0


def while_two_names(a, b):
    while a.sum() > 0:
        a, b = b - 1.0, a - 1.0
    a[0] = 5.0
    b[1] = 7.0


def while_twice(a):
    while a.sum() > 4.0:
        a = a - 1.0
    a[0] += 1.0
    while a.max() > 3.0:
        a = a * 0.5
    a[1] += 1.0


def while_body_writes(a):
    while a[0] > 0.0:
        a[1] += 1.0
        a = a - 1.0
    a[2] = 9.0


def range_from_data(a):
    for i in range(int(a[0] > 0) * 2):
        a = a * 2.0
    a[1] += 1.0


def range_from_data_write_first(a, k):
    for i in range(int(k.sum())):
        a += 1.0
        a = a % 3.0
    a[...] *= -1.0


def shrink(v):
    while v.sum() > 0:
        v = v - 2.0
    v[...] *= 3.0


def helper_while(a):
    shrink(a)
    return a.sum()


def shrink_and_return(v):
    while v.sum() > 0:
        v = v - 2.0
    v[0] = 1.0
    return v


def helper_while_returned(a):
    w = shrink_and_return(a)
    w[1] = 3.0
    return a.sum()


def nested_in_for(a):
    for k in range(20):
        while a.sum() > 10.0:
            a = a * 0.5
        a[0] += 1.0


def break_on_data(a):
    for i in range(4):
        if a.sum() < 0:
            break
        a = a - 1.0
    a[...] *= 2.0


def continue_on_data(a):
    for i in range(3):
        if a[i] > 0:
            continue
        a = a + 1.0
    a[0] = 0.0


def if_reverse(a):
    if a[0] > 0:
        a = a[::-1]
    a[0] = 9.0


def if_choose(a, b):
    x = a if a.sum() > 0 else b
    x[0] = 7.0


def if_rebind_copy(a, b):
    x = a.copy()
    if a.sum() > 0:
        x = b
    x[...] += 1.0
    return x.sum()


def maybe_copy(v):
    if v.sum() > 0:
        return v
    return v.copy()


def helper_maybe_copy(a):
    w = maybe_copy(a)
    w[0] = 5.0


def local_in_for(a, out):
    for i in range(3):
        t = a * 1.0
        while t.sum() > 1.0:
            t = t * 0.5
        t[0] += 1.0
        out[i] = t.sum()


def while_break(a):
    while a.sum() > 0:
        a = a - 1.0
        if a[0] < -1.5:
            break
    a[1] = 0.0


def shrink_seen(v, w):
    while v.sum() > 0:
        v = v - 2.0
    v[...] *= 3.0
    return w.sum()


def helper_same_array_twice(a):
    return shrink_seen(a, a)

