"""NumPy's errors that depend on the data, raised when the compiled call runs, and
numpy.linalg's triangles, each against NumPy through the jitted translation. np.digitize of bins
that are neither increasing nor decreasing (rt/np_shape.py) raises NumPy's ValueError. In
numpy.linalg (rt/np_linalg.py): a singular matrix in inv/solve/tensorinv/tensorsolve, a matrix that is not positive
definite in cholesky, a NaN in the SVD's users, raise NumPy's LinAlgError when the call runs
(jax.numpy returned infinities or NaN: silent wrong answers); cholesky, eigh and eigvalsh read
one triangle as LAPACK does (jax.numpy averaged the matrix with its transpose first)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def inv(a):
    return np.linalg.inv(a)


def solve(a, b):
    return np.linalg.solve(a, b)


def cholesky(a):
    return np.linalg.cholesky(a)


def cholesky_upper(a):
    return np.linalg.cholesky(a, upper=True)


def eigh(a):
    w, v = np.linalg.eigh(a)
    return w, np.abs(v)


def eigvalsh_upper(a):
    return np.linalg.eigvalsh(a, UPLO="U")


def svd_users(a, b):
    return np.linalg.svd(a, compute_uv=False), np.linalg.pinv(a), np.linalg.cond(a), np.linalg.norm(a, 2)


def lstsq(a, b):
    return np.linalg.lstsq(a, b)[0]


def tensor(a, b):
    return np.linalg.tensorinv(a, ind=1), np.linalg.tensorsolve(a, b)


def inverse_square(a):
    return np.linalg.matrix_power(a, -2)


def spread_past_n(a):
    return a.var(ddof=3), np.std(a, ddof=4, axis=0), np.var(a, ddof=1)


def digitize(x, bins):
    return np.digitize(x, bins)


def newton_steps(a, b):
    x = np.zeros(b.shape[0])
    for _ in range(3):
        x = x + np.linalg.solve(a, b - a @ x)
    return x
'''

GOOD = np.array([[3.0, 1.0], [1.0, 2.0]])
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
NOT_PD = np.array([[1.0, 2.0], [2.0, 1.0]])
NAN = np.array([[np.nan, 1.0], [1.0, 2.0]])
INF = np.array([[np.inf, 1.0], [1.0, 2.0]])
# not symmetric: LAPACK reads the lower triangle (or the upper, UPLO="U")
LOPSIDED = np.array([[4.0, 100.0, 3.0], [2.0, 5.0, -7.0], [1.0, 0.5, 6.0]])
B = np.ones(2)


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("numpy_errors"), "np2ref_numpy_errors_case")


def _outcome(fn, *args):
    try:
        return fn(*args)
    except (np.linalg.LinAlgError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("name, cases", [
    ("inv", [(GOOD,), (SINGULAR,)]),
    ("solve", [(GOOD, B), (SINGULAR, B)]),
    ("inverse_square", [(GOOD,), (SINGULAR,)]),
    ("newton_steps", [(GOOD, B), (SINGULAR, B)]),  # raised from inside a loop
    ("cholesky", [(GOOD,), (NOT_PD,), (LOPSIDED,)]),
    # NumPy reads the upper triangle for upper=True (jax.numpy read the lower one)
    ("cholesky_upper", [(GOOD,), (NOT_PD,), (LOPSIDED,), (LOPSIDED.T,)]),
    ("eigh", [(LOPSIDED,)]),
    ("eigvalsh_upper", [(LOPSIDED,)]),
    ("svd_users", [(GOOD, B), (NAN, B), (INF, B)]),  # infinities converge; NaN does not
    ("lstsq", [(GOOD, B), (INF, B)]),  # gelsd: infinities do not converge either
    ("tensor", [(GOOD, B), (SINGULAR, B)]),
    # NumPy's own test of the bins: a leading run equal to bins[0], then the first step's way
    # ddof at or past the count: NumPy divides by 0 (inf, or nan for no spread; jnp: nan)
    ("spread_past_n", [(np.array([0.25, -0.35, 2.5]),), (np.ones(3),)]),
    ("digitize", [(B, np.array([0.0, 2.0, 1.0])), (B, np.array([1.0, 1.0, 0.0, 2.0])),
                  (B, np.array([2.0, 2.0, 1.0, 0.0])), (B, np.array([0.0, 0.0, 0.0]))]),
])
def test_numpys_values_and_errors(mod, name, cases):
    fn = getattr(mod, name)
    compiled = np2ref.compile(fn, host_below=0)
    for args in cases:
        expected, got = _outcome(fn, *args), _outcome(compiled, *args)
        if isinstance(expected, str) or isinstance(got, str):
            assert got == expected, args
            continue
        for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
            np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12, equal_nan=True)
