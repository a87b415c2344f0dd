"""Masked stores and masked reductions inside `for m in (red, black):` loops over a tuple of
masks: the red-black relaxation of examples/scripts/sor_redblack_poisson.py, and its variants."""
import numpy as np


def red_black(u, f, omega):
    i, j = np.indices(u.shape)
    interior = np.zeros(u.shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    red = interior & ((i + j) % 2 == 0)
    black = interior & ((i + j) % 2 == 1)
    change = 0.0
    for mask in (red, black):
        r = np.zeros_like(u)
        r[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] + f[1:-1, 1:-1]) - u[1:-1, 1:-1]
        u[mask] += omega * r[mask]
        change = max(change, np.max(np.abs(r[mask])))
    return change


def parameter_and_its_complement(u, r, mask):
    total = 0.0
    for m in [mask, ~mask]:
        u[m] *= 1.0 + r[m]
        total += np.sum(r[m] ** 2)
    return total


def index_arrays(u, v, first, second):
    """The tuple's names hold integer index arrays (repeated indices): NumPy's buffered fancy
    store, decided when traced as for a parameter."""
    for idx in (first, second):
        u[idx] += v[idx]
    return u.sum()


def integers(u):
    for k in (0, 2):
        u[k] = -u[k]
    return u
