"""Programs for tests/library/test_solve_banded.py: library calls with an exact JAX counterpart
(analysis/library_table.py). Imports scipy: the tests import this module only when it is
installed (it is no dependency of np2ref)."""

import numpy as np
import scipy.linalg
from scipy.linalg import lapack, solve_banded


# ---- library calls with an exact JAX counterpart: a tridiagonal implicit step ----------------
def implicit_heat(u, nu, steps):
    n = u.shape[0]
    ab = np.zeros((3, n))
    ab[0, 1:] = -nu
    ab[1, :] = 1 + 2 * nu
    ab[2, :-1] = -nu
    for _ in range(steps):
        u[:] = scipy.linalg.solve_banded((1, 1), ab, u)
    return u


def gtsv_step(dl, d, du, b):
    du2, d2, du_, x, info = lapack.dgtsv(dl, d, du, b)
    return du2, d2, du_, x, info


def banded_general(ab, b):
    return solve_banded((1, 1), ab, b)


def banded_wide(ab, b):
    return solve_banded((1, 2), ab, b)
