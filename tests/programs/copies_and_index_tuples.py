"""Programs for tests/rules/test_copies_and_index_tuples.py: NumPy code np2ref crashed on or refused falsely."""

import numpy as np


# -- a store into a chain that NumPy makes a copy (the temporary takes it) or a view ----------
def store_into_fancy_copy(a):
    b = a.copy()
    b[[0, 1]][0] = 9.0
    b[[0, 2]][:, 0] += 4.0
    b[[1, 2]].fill(-3.0)
    np.copyto(b[[0, 1]], 1.0)
    b[[2, 0]].sort(axis=1)
    return b


def store_into_basic_view(a):
    b = a.copy()
    b[1:3][0] = 9.0
    b[1:3][[0, 1], 1] = -1.0
    b[:, 1][[0, 2]] += 5.0
    b.T[1:][0] = 8.0
    b[::2].fill(0.5)
    return b


def store_into_a_mask_copy(a):
    b = a.copy()
    b[b > 5][0] = 9.0
    return b


def store_into_argument_fancy_copy(a):
    a[[0, 2]][1] = -1.0
    a[0][1] = 5.0
    return a


# -- `op=` rebinding a NumPy scalar to an array, which is written after -------------------------
def scalar_rebound_then_written(a):
    t = a.sum(axis=0)
    t = a.sum()
    t += a[0]
    t[1] = 3.0
    return t


def scalar_reductions_rebound(a):
    s = np.sum(a)
    s *= a[1]
    s[0] = -1.0
    e = a[0, 0]
    e += a[2]
    e[3] = 0.5
    d = a.max() - a.min()
    d -= a[:, 1]
    d[0] += 1.0
    return s, e, d


def array_sum_in_place(a):
    t = a.sum(axis=0)
    u = t
    t += 1.0
    t[0] = 5.0
    return u


def zero_d_array_in_place(a):
    t = np.zeros(())
    t += a[0, 0]
    t[...] = t * 3.0
    return t


# -- index tuples with `...` and slices, rebound in loops --------------------------------------
def ellipsis_index_in_loop(a, n):
    idx = (0, Ellipsis)
    for k in range(n):
        a[idx] = a[idx] + 1.0
        idx = (1, Ellipsis)
    return a


def slice_index_in_loop(a, n):
    idx = (0, slice(1, 3))
    for k in range(n):
        a[idx] += 1.0
        idx = (k, slice(0, 2))
    s = 0
    for k in range(n):
        a[1, s] *= 2.0
        s = slice(1, 3)
    return a


def index_tuple_once(a):
    idx = (0, Ellipsis)
    a[idx] = a[idx] * 2.0 + 1.0
    return a


def index_chosen_by_data(a):
    if a[0, 0] > 0:
        idx = (0, Ellipsis)
    else:
        idx = (1, Ellipsis)
    a[idx] = 5.0
    return a


def index_array_with_unmasked_array(a, i, b):
    a[i] = a[i] + b
    return a


# -- rebinding seen by the aliasing analysis ------------------------------------------------------
def copy_of_tuple_item(state):
    x, v = state
    x = x.copy()
    x += v
    return x


def fresh_items_written(state, n):
    x, v = state
    y = state[1]
    y = y * 2.0
    y[0] = 7.0
    for i in range(n):
        x = x.copy()
        x += v
    return x, y


def tuple_item_written(state):
    x, v = state
    x += v
    return x


def tuple_item_written_before_copy(state, n):
    x, v = state
    for i in range(n):
        x += v
        x = x.copy()
    return x


def tuple_item_maybe_copied(state):
    x, v = state
    if v[0] > 0:
        x = x.copy()
    x += v
    return x


def tuple_item_alias_written(state):
    x, v = state
    y = x
    x = x.copy()
    y += v
    return x


def param_rebound_not_written(a, b):
    x = a
    x = x + 1.0
    x += b
    return x
