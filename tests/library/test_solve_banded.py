"""Library calls with an exact JAX counterpart (analysis/library_table.py): scipy.linalg's
solve_banded and LAPACK's dgtsv, bit for bit against SciPy (pivoting, singular systems, its
errors), their gradients against central differences, other bands refused (NPR112); the calls
never make a function host code (tests/programs/library_calls.py)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program
from np2ref.diagnostics import Np2RefError


def _library():
    pytest.importorskip("scipy")
    return program("library_calls")


def _tridiagonal(rng, n, dominant):
    a, c, d = rng.standard_normal(n - 1), rng.standard_normal(n - 1), rng.standard_normal(n)
    if dominant:
        d = d + np.sign(d) * (np.abs(np.r_[a, 0]) + np.abs(np.r_[0, c]) + 0.5)
    return a, d, c


def test_solve_banded_is_scipys_bit_for_bit_in_an_implicit_time_loop():
    L = _library()
    f = np2ref.compile(L.implicit_heat)
    expected, got = assert_same_as_numpy(L.implicit_heat, f, np.sin(np.linspace(0, 3, 9)), 0.4, 3)
    np.testing.assert_array_equal(got, expected)  # bit for bit


def test_solve_banded_gradient_matches_finite_differences():
    """jax.grad through solve_banded: the solve's own rule (dx = A^-1 (db - dA x)), alone and in
    an implicit time loop (a loop body traced for differentiation takes tridiagonal_solve, the
    same LAPACK gtsv), against central differences of the NumPy/SciPy original."""
    import jax
    L = _library()
    rng = np.random.default_rng(3)
    a, d, c = _tridiagonal(rng, 6, dominant=True)
    ab = np.vstack([np.r_[0.0, c], d, np.r_[a, 0.0]])
    b = rng.standard_normal(6)
    cases = [(L.banded_general, lambda ab_, b_: (ab_, b_), (ab, b)),
             (L.implicit_heat, lambda u_, nu_: (u_, nu_, 3), (np.sin(np.linspace(0, 3, 6)), 0.4))]
    with jax.enable_x64(True):
        for fn, args_of, point in cases:
            pure = np2ref.compile(fn).pure
            def loss(*p):
                out = pure(*args_of(*p))
                return ((out[0] if isinstance(out, tuple) else out) ** 2).sum()
            grads = jax.jit(jax.grad(loss, argnums=tuple(range(len(point)))))(*point)  # one compile
            for k, (g, x) in enumerate(zip(grads, point)):
                x = np.asarray(x, float)
                num = np.zeros_like(x)
                for idx in np.ndindex(x.shape):
                    hi, lo = [np.array(p, float) for p in point], [np.array(p, float) for p in point]
                    hi[k][idx] += 1e-6
                    lo[k][idx] -= 1e-6
                    num[idx] = (np.sum(fn(*args_of(*hi)) ** 2) - np.sum(fn(*args_of(*lo)) ** 2)) / 2e-6
                np.testing.assert_allclose(np.asarray(g), num, rtol=1e-6, atol=1e-8)


def test_solve_banded_and_dgtsv_agree_bit_for_bit_with_pivoting_and_singular_systems():
    L = _library()
    gtsv, banded = np2ref.compile(L.gtsv_step), np2ref.compile(L.banded_general)
    rng = np.random.default_rng(0)
    singular = 0
    for t in range(12):
        n = 5 + t % 3  # three shapes: three compiles
        a, d, c = _tridiagonal(rng, n, dominant=t % 2 == 0)
        if t % 4 == 3:  # integer entries: exact zero pivots, some singular systems
            a, d, c = (np.round(v) for v in (a, d, c))
        b = rng.standard_normal((n, 2)) if t % 3 else rng.standard_normal(n)
        expected = L.gtsv_step(a, d, c, b)
        got = gtsv(a, d, c, b)
        for e, g in zip(expected, got):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e))
        singular += expected[4] > 0
        ab = np.stack([np.r_[0, c], d, np.r_[a, 0]])
        if expected[4] > 0:
            for call in (L.banded_general, banded):
                with pytest.raises(np.linalg.LinAlgError, match="^singular matrix$"):
                    call(ab, b)
        else:
            np.testing.assert_array_equal(banded(ab, b), L.banded_general(ab, b))
    assert singular  # the draws include singular systems (partial results compared too)


def test_solve_banded_keeps_scipys_errors_and_refuses_other_bands():
    L = _library()
    banded = np2ref.compile(L.banded_general)
    ab = np.stack([np.r_[0, 1.0, 1.0], [4.0, np.inf, 4.0], np.r_[1.0, 1.0, 0]])
    for call in (L.banded_general, banded):
        with pytest.raises(ValueError, match="^array must not contain infs or NaNs$"):
            call(ab, np.ones(3))
    with pytest.raises((Np2RefError, NotImplementedError), match="NPR112"):
        np2ref.compile(L.banded_wide)(np.ones((4, 3)), np.ones(3))


def test_library_calls_do_not_make_the_function_host_code():
    pytest.importorskip("scipy")
    source = open(_library().__file__).read()
    result = np2ref.convert_source(source, "library_calls.py")
    assert "npr_lib_solve_banded((1, 1), ab[...], u[...])" in result.code
    assert "npr_lib_dgtsv(dl, d, du, b)" in result.code
    assert not any(d.code in ("NPR003", "NPR021") for d in result.diagnostics)
