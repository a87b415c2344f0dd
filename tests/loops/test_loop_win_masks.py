"""Masked stores into a window of a static width at a traced offset (`w = out[i:i + k]`,
`w[w < 0] = 0.0`; `out[i:i + k][m] += v`) are lax loops, exact against NumPy (rt/win_views.py):
each iteration sees the earlier ones' writes through the overlapping windows, ragged windows
at the end write only NumPy's elements."""

from __future__ import annotations

import functools
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, assert_same_as_numpy, program
from test_loop_slices import _eqns

P = program("loop_win_masks")
RNG = np.random.default_rng(33)
F = RNG.standard_normal(12)
I = RNG.integers(-4, 9, 11)
CASES = {
    "clip_windows": [(F, 3), (F, 12), (F, 1)],
    "masked_add_window": [(F, RNG.standard_normal(12), 4), (I, I[::-1].copy(), 3)],
    "halve_big": [(I.copy(), 3), (I.astype(np.int8), 5)],
    "add_selected": [(F, RNG.standard_normal(12), 5), (I, I[::-1].copy(), 2)],
    "ragged_sub": [(F, RNG.standard_normal(12), 4), (I, I[::-1].copy(), 3), (I, I.copy(), 20)],
    "ragged_view": [(F * 3, 3), (I, 4)],
    "neg_start": [(F,), (I[:3],), (I[:2],)],
    "ragged_rows": [(RNG.standard_normal((5, 5)) * 2, 3), (RNG.integers(-3, 3, (4, 4)), 2)],
}


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name))


@pytest.mark.parametrize("name, args", [(name, args) for name in sorted(CASES) for args in CASES[name]])
def test_masked_stores_into_moving_windows_are_lax_loops_and_exact(name, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)  # no loop falls back to Python
        assert_same_as_numpy(getattr(P, name), compiled(name), *args)


@pytest.mark.parametrize("name, small, big", [
    ("clip_windows", (F[:8], 3), (np.zeros(80), 3)),
    ("masked_add_window", (F[:8], F[:8], 3), (np.zeros(80), np.zeros(80), 3)),
    ("ragged_sub", (F[:8], F[:8], 4), (np.zeros(80), np.zeros(80), 4)),
])
def test_the_loop_is_a_lax_loop(name, small, big):
    pure = compiled(name).pure
    with jax.enable_x64(True):
        a, b = (_eqns(jax.make_jaxpr(pure, static_argnums=tuple(k for k, v in enumerate(args) if isinstance(v, int)))(
            *args).jaxpr) for args in (small, big))
    assert any(p in ("scan", "while") for p in a)
    assert len(a) == len(b)  # one body, whatever the trip count


def test_an_index_that_may_fall_past_a_ragged_window_runs_as_python_and_says_so():
    with pytest.warns(np2ref.PythonLoopWarning, match="slice's bounds depend on the loop variable"):
        assert_same_as_numpy(P.ragged_scalar_index, compiled("ragged_scalar_index"), F, 3, 11)
    with pytest.raises(IndexError):  # the last window has one element: w[1] is past its end
        P.ragged_scalar_index(F.copy(), 3, 12)
    with pytest.raises(IndexError), warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        compiled("ragged_scalar_index")(F.copy(), 3, 12)


def test_grad_and_vmap_of_pure():
    c = compiled("masked_add_window")
    a, b = F[:8], RNG.standard_normal(8)
    with jax.enable_x64(True):
        # jitted: run eagerly, each operation is compiled on its own (docs/ci.md)
        xs = jax.jit(jax.vmap(lambda b: c.pure(a, b, 3)[0]))(jnp.asarray(np.stack([b, 2 * b])))
        g = jax.jit(jax.grad(lambda b: c.pure(a, b, 3)[0].sum()))(jnp.asarray(b))
    assert_numpys_bits(xs[1], P.masked_add_window(a, 2 * b, 3))  # (a TPU's float64 pair: 1e-13)
    # d(sum out)/d b[i] = the count of positive a in window i
    np.testing.assert_array_equal(g, [(a[i:i + 3] > 0).sum() if i < 6 else 0 for i in range(8)])
    clip = compiled("clip_windows")
    with jax.enable_x64(True):
        gc = jax.jit(jax.grad(lambda a: clip.pure(a, 3)[0].sum()))(jnp.asarray(F[:8]))
    np.testing.assert_array_equal(gc, (P.clip_windows(F[:8], 3) == F[:8]) * 1.0)
