"""Slices that move with the loop variable become lax loops, exact against NumPy
(rt/windows.py): windows of a static width (`x[i:i + w]`, ragged at the edge, negative
starts), triangular slices (`A[k + 1:, k]`, `A[i, :i]`), slices read from data (CSR rows)."""

from __future__ import annotations

import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("loop_slices")
RNG = np.random.default_rng(18)
X = RNG.standard_normal(10)
_S = RNG.standard_normal((5, 5))
SPD = _S @ _S.T + 5 * np.eye(5)
CASES = {
    "win_sum": [(X, 3), (X, 12), (X, 0)],          # ragged windows at the end; wider than x; empty
    "win_kernel": [(X, np.array([1.0, 2.0, 3.0]))],  # proved inside x: a plain array times a kernel
    "stencil_neg": [(X,), (X[:3],)],                # u[i - 1:i + 2] at i = 0 is u[-1:2]: empty (n > 3)
    "win_store": [(X, np.zeros(10)), (X[:9], np.zeros(9))],
    "lu": [(SPD.copy(),)],
    "cholesky": [(SPD,)],
    "trisolve": [(np.tril(SPD), np.triu(SPD), X[:5])],
    "correlation": [(RNG.standard_normal((4, 6)),)],
    "csr": [(np.array([0, 2, 2, 5]), np.array([0, 2, 1, 0, 2]), np.array([1.0, 2, 3, 4, 5]),
             np.array([1.0, -1.0, 0.5]))],
    "row_tail": [(X[:6],)],
    "pair_energy": [(RNG.random((6, 3)) * 2, 1.0), (RNG.random((2, 3)), 5.0)],
    "pair_ufuncs": [(RNG.random((6, 3)),), (RNG.random((1, 2)),)],
    "pair_einsum": [(RNG.random((6, 3)), np.array([1.0, -2.0, 0.5]))],
    # boolean-mask reads of the moving slice: some pairs inside, none, a single particle
    "pair_masked": [(RNG.random((7, 3)) * 1.5, 0.7), (RNG.random((4, 3)), 0.0), (RNG.random((1, 3)), 1.0)],
    "pair_masked_extremes": [(RNG.random((6, 3)), 3.0)],
    "pair_masked_starts": [(RNG.random((6, 3)), RNG.standard_normal(6))],
    "pair_masked_forces": [(RNG.random((6, 3)), 0.7), (RNG.random((3, 3)), 0.0)],
}
_COMPILED = {}


def compiled(name):
    if name not in _COMPILED:
        _COMPILED[name] = np2ref.compile(getattr(P, name))
    return _COMPILED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_loop_slices_are_lax_loops_and_exact(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)  # no loop falls back to Python
        for args in CASES[name]:
            assert_same_as_numpy(getattr(P, name), compiled(name), *args)


def _eqns(jaxpr):
    """Every equation, nested jaxprs included."""
    out = []
    for e in jaxpr.eqns:
        out.append(e.primitive.name)
        for p in e.params.values():
            for sub in (p if isinstance(p, (tuple, list)) else [p]):
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    out += _eqns(inner)
    return out


@pytest.mark.parametrize("name, small, big", [
    ("win_sum", (np.zeros(8), 3), (np.zeros(80), 3)),
    ("lu", (np.eye(4),), (np.eye(40),)),
])
def test_the_program_does_not_grow_with_the_trip_count(name, small, big):
    pure = compiled(name).pure
    with jax.enable_x64(True):
        a = _eqns(jax.make_jaxpr(pure, static_argnums=tuple(i for i, v in enumerate(small) if isinstance(v, int)))(*small).jaxpr)
        b = _eqns(jax.make_jaxpr(pure, static_argnums=tuple(i for i, v in enumerate(big) if isinstance(v, int)))(*big).jaxpr)
    # a lax loop, or (win_sum: independent iterations, rt/vectorise.py) one vmap over the range
    assert any(p in ("scan", "while") for p in a) or "npr_vfor" in compiled(name).source
    assert len(a) == len(b)


def test_window_of_a_plain_array_is_a_dynamic_slice_when_proved_in_range(monkeypatch):
    src = compiled("win_kernel").source
    assert "npr_win(i, 3)" in src
    monkeypatch.setattr("np2ref.rt.vectorise.NPR_VECTORISE", False)  # the loop's own lowering (not vmap's gather)
    with jax.enable_x64(True):
        eqns = _eqns(jax.make_jaxpr(compiled("win_kernel").pure)(X, jnp.ones(3)).jaxpr)
    assert "dynamic_slice" in eqns and "iota" not in eqns  # no mask: the window is whole


def test_lengths_that_differ_at_run_time_are_refused_there():
    with pytest.raises(ValueError):
        P.mismatched(X.copy())  # NumPy: operands could not be broadcast together
    with pytest.raises(np2ref.Np2RefError, match="NPR110") as refused:
        compiled("mismatched")(X.copy())
    # raised after the run, placed at the line that traced the check (it was line 0)
    (d,) = refused.value.diagnostics
    line = inspect.getsourcelines(P.mismatched)[1] + 4
    assert (d.span.line, d.span.col) == (line, 9), str(refused.value)
    assert "(x[i:] * x[:i]).sum()" in str(refused.value) and "^^^" in str(refused.value)


def test_a_ragged_window_used_as_an_array_runs_as_python_and_says_so():
    with pytest.warns(np2ref.PythonLoopWarning, match="slice's bounds depend on the loop variable"):
        assert_same_as_numpy(P.ragged_sorted_first, compiled("ragged_sorted_first"), X)


def test_np_max_of_a_ragged_window_runs_as_a_lax_loop():
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        assert_same_as_numpy(P.ragged_max, compiled("ragged_max"), X)


def test_grad_and_vmap_of_pure():
    c = compiled("trisolve")
    L, U, b = np.tril(SPD), np.triu(SPD), X[:5]
    with jax.enable_x64(True):
        L, U = jnp.asarray(L), jnp.asarray(U)
        # jitted: one compile each (eager, each operation compiles on its own)
        g = jax.jit(jax.grad(lambda b: c.pure(L, U, b)[0].sum()))(jnp.asarray(b))
        xs = jax.jit(jax.vmap(lambda b: c.pure(L, U, b)[0]))(jnp.asarray(np.stack([b, 2 * b + 1])))
    # x = U^-1 L^-1 b: d(sum x)/db = L^-T U^-T 1
    np.testing.assert_allclose(g, np.linalg.solve(np.tril(SPD).T, np.linalg.solve(np.triu(SPD).T, np.ones(5))), rtol=1e-10)
    np.testing.assert_allclose(xs[1], P.trisolve(np.tril(SPD), np.triu(SPD), 2 * b + 1), rtol=1e-12)
    w = compiled("win_kernel")
    with jax.enable_x64(True):
        gk = jax.jit(jax.grad(lambda k: w.pure(jnp.asarray(X), k)[0].sum()))(jnp.ones(3))
    np.testing.assert_allclose(gk, [X[i:i + 8].sum() for i in range(3)], rtol=1e-12)


def test_ufuncs_of_a_moving_slice_have_numpys_gradient():
    # np.sqrt, np.exp, np.log of a pair loop's distances (rt/masked.py _npr_masked_ufunc): of the
    # slice's own elements only; the discarded ones (the pair of a point with itself: r == 0)
    # guarded, so jax.grad meets no pole there
    c = compiled("pair_ufuncs")
    pos = RNG.random((5, 3))
    t = RNG.standard_normal(pos.shape)
    h = 1e-6
    central = (P.pair_ufuncs(pos + h * t) - P.pair_ufuncs(pos - h * t)) / (2 * h)
    with jax.enable_x64(True):
        g = jax.jit(jax.grad(lambda p: c.pure(p)[0]))(jnp.asarray(pos))
    assert np.isfinite(np.asarray(g)).all()
    np.testing.assert_allclose(float(np.sum(np.asarray(g) * t)), central, rtol=1e-6)


def test_an_empty_selection_of_a_moving_slice_has_no_max():
    pos = RNG.random((5, 3))
    with pytest.raises(ValueError, match="zero-size array"):
        P.pair_masked_extremes(pos, 0.01)
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        compiled("pair_masked_extremes")(pos, 0.01)


def _central_and_grad(fn, pure, pos):
    """fn's central difference at pos along a random direction, and jax.grad of pure there
    (with its value along that direction)."""
    t = np.random.default_rng(2).standard_normal(pos.shape)
    h = 1e-6
    central = (fn(pos + h * t) - fn(pos - h * t)) / (2 * h)
    with jax.enable_x64(True):
        g = np.asarray(jax.jit(jax.grad(pure))(jnp.asarray(pos)))
    return central, g, float(np.sum(g * t))


def test_masked_reads_of_a_moving_slice_have_numpys_gradient():
    # `(1.0 / r2[inside]) ** 3`: the pair of a point with itself (r2 == 0), outside the slice,
    # and the pairs outside the cutoff are guarded (_npr_selected_guard), so jax.grad meets no pole
    c = compiled("pair_masked")
    central, g, along = _central_and_grad(lambda p: P.pair_masked(p, 0.8)[0],
                                          lambda p: c.pure(p, 0.8)[0][0], RNG.random((6, 3)) * 1.5)
    assert np.isfinite(g).all()
    np.testing.assert_allclose(along, central, rtol=1e-6)


def test_minimum_image_energy_is_a_lax_loop_with_numpys_gradient():
    # simulations.minimum_image_energy: a masked read of the moving slice's distances in a
    # name (`inv6 = (1.0 / r2[inside]) ** 3`) ran as a Python loop (NPR033; 15 s to compile at
    # 100 particles, 0.25 s now)
    T = program("simulations")
    c = np2ref.compile(T.minimum_image_energy)
    pos = RNG.random((8, 3)) * 3.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        assert_same_as_numpy(T.minimum_image_energy, c, pos, 3.0, 1.6)
        central, g, along = _central_and_grad(lambda p: T.minimum_image_energy(p, 3.0, 1.6),
                                              lambda p: c.pure(p, 3.0, 1.6)[0], pos)
    assert np.isfinite(g).all()
    np.testing.assert_allclose(along, central, rtol=1e-6)


def test_a_masked_store_into_a_moving_slice_runs_as_python_and_says_so():
    with pytest.warns(np2ref.PythonLoopWarning, match="slice's bounds depend on the loop variable"):
        assert_same_as_numpy(P.pair_masked_store, compiled("pair_masked_store"), RNG.random((5, 3)), 0.8)
