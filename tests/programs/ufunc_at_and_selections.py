"""Ordinary NumPy that np2ref once refused: polynomial helpers, ufunc .at without a
scatter combiner, indices made by np.nonzero, and masked reads kept in a name through a mask
that is a parameter. tests/rules/test_ufunc_at.py, tests/library/test_polynomials.py and
tests/masks/test_selections.py run each through NumPy and np2ref."""

import numpy as np


def poly_calculus(p):
    return (np.polyder(p), np.polyint(p), np.polyder(p, 2), np.polyint(p, 2, [1, 2]), np.polyint(p, 3, 2.5),
            np.polyder(p, m=0), np.polyadd(p, [1.5, 2.0]), np.polysub([3], p), np.polyval(np.polyder(p), 0.5))


def poly_roots(p):
    return np.roots(p)


def poly_object(p):
    return np.poly1d(p)


def poly_product(p):
    return np.polymul(p, p)


def divide_at(a, i, v):
    np.divide.at(a, i, v)
    return a


def floor_divide_at(a, i, v):
    np.floor_divide.at(a, i, v)
    return a


def remainder_at(a, i, v):
    np.remainder.at(a, i, v)
    return a


def power_at(a, i, v):
    np.power.at(a, i, v)
    return a


def logical_or_at(a, i, v):
    np.logical_or.at(a, i, v)
    return a


def bitwise_xor_at(a, i, v):
    np.bitwise_xor.at(a, i, v)
    return a


def add_at(a, i, v):
    np.add.at(a, i, v)
    return a


def subtract_at(a, i, v):
    np.subtract.at(a, i, v)
    return a


def multiply_at(a, i, v):
    np.multiply.at(a, i, v)
    return a


def divided_energy(x, i, v):
    a = x.copy()
    np.divide.at(a, i, v)
    return np.sum(a ** 2)


def nonzero_read(x, m):
    return x[np.nonzero(m)]


def nonzero_sum(x, m):
    return x[np.nonzero(m)].sum()


def where_index_sum_of_squares(x, m):
    return np.sum(x[np.where(m)] ** 2)


def nonzero_first_sum(x, m):
    idx = np.nonzero(m)[0]
    return x[idx].sum()


def where_first_extremes(x, m):
    idx = np.where(m)[0]
    return x[idx].max() + x[idx].mean()


def flatnonzero_sum(x, m):
    idx = np.flatnonzero(m)
    return np.sum(x[idx])


def nonzero_store(x, m):
    e = np.zeros_like(x)
    e[np.nonzero(m)] = 1.0 / x[np.nonzero(m)]
    return e


def nonzero_method_selection(x, m):
    v = x[m.nonzero()]
    return (v * 2).sum()


def nonzero_count(x, m):
    idx = np.nonzero(m)[0]
    return len(idx)


def inverse_selection_sum(x, m):
    v = 1.0 / x[m]
    return v.sum()


def inverse_of_selection_sum(x, m):
    v = x[m]
    return (1.0 / v).sum()


def repulsion_store(x, m):
    e = np.zeros_like(x)
    v = x[m]
    e[m] = v ** -12
    return e


def repulsion_store_mixed(x, y, m):
    e = np.zeros_like(x)
    v = x[m]
    e[m] = 1.0 / v + y[m] * 2.0
    return e


def repulsion_energy(x, m):
    e = np.zeros_like(x)
    v = x[m]
    e[m] = v ** -12 - v ** -6
    return np.sum(e)
