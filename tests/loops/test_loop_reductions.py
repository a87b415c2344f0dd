"""mean, max and min of slices that move with the loop variable, and slices with a step that
move with it (`x[i::2]`, `x[i:i + 2 * w:2]`, `x[:i:-1]`), are lax loops, exact against NumPy
(rt/windows_more.py): masked reductions over the slice's elements only, NumPy's clipping."""

from __future__ import annotations

import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("loop_reductions")
RNG = np.random.default_rng(181)
X = RNG.standard_normal(9) * 4
CASES = {
    "means": [(X,), (X.astype(np.float32),), (np.arange(-3, 6),), (X[:2],)],
    "extremes": [(X,), (np.array([2, -1, 7, 7, 0, -5], dtype=np.int32),), (np.array([np.nan, 1.0, -np.inf, 2.0]),)],
    "block_stats": [(RNG.standard_normal((5, 5)),)],
    "conv2d": [(RNG.standard_normal((2, 6, 5)), RNG.standard_normal((3, 3)))],
    "view_windows": [(X,), (X[:3],)],
    "durbin": [(0.5 * 0.9 ** np.arange(1, 9),), (np.array([0.25]),)],
    "step_reads": [(X,), (X[:1],), (np.zeros(0),), (np.arange(8),)],
    "step_window": [(X, 3), (X[:4].astype(np.float32), 1)],
    "step_stores": [(X.copy(), X[::-1].copy()), (X[:2].copy(), X[:2].copy()), (np.arange(6.0), np.arange(6.0, 0, -1))],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_masked_reductions_are_lax_loops_and_exact(name):
    fn = getattr(P, name)
    compiled = np2ref.compile(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)  # no loop falls back to Python
        for args in CASES[name]:
            assert_same_as_numpy(fn, compiled, *args)


def test_max_of_an_empty_moving_slice_raises_numpys_error():
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum") as np_err:
        P.running_max_empty(X.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        with pytest.raises(ValueError) as got:
            np2ref.compile(P.running_max_empty)(X.copy())
    assert str(got.value) == str(np_err.value)


def test_grad_and_vmap_through_a_masked_mean():
    pure = np2ref.compile(P.means).pure
    x = X.copy()
    out_fn = lambda v: pure(v)[0].sum()  # noqa: E731
    with jax.enable_x64(True):
        g = jax.jit(jax.grad(out_fn))(jax.numpy.asarray(x))  # one compile (eager: one an operation)
    # d/dx_j of sum_i mean(x[i:]) + mean(x[i-3:]) + mean(x[max(i-2,0):i+1]), by finite differences
    eps, fd = 1e-6, np.zeros_like(x)
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = eps
        fd[j] = (P.means(x + e).sum() - P.means(x - e).sum()) / (2 * eps)
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-8)
    batch = np.stack([x, -x])
    with jax.enable_x64(True):
        got = jax.jit(jax.vmap(lambda v: pure(v)[0]))(jax.numpy.asarray(batch))
    np.testing.assert_allclose(np.asarray(got), np.stack([P.means(x), P.means(-x)]), rtol=1e-12)


@pytest.mark.parametrize("noted", [255, 256, 257])
def test_the_loop_ranges_other_traces_noted_do_not_decide_this_ones_windows(noted, monkeypatch):
    """rt/bounds.py notes each traced loop variable's range (`_npr_RANGES`), by which a window
    `x[:, i:i + K]` is proved inside its axis. The notes were all cleared once 256 had gathered
    in the process, wherever that happened: an inner loop's note could drop its outer loop's,
    and the same conv2d fell back to a Python loop (or raised NPR111) only after enough other
    traces (a test failure that came and went with the test order)."""
    from np2ref.rt import bounds

    stale = {-k - 1: (0, 1, None) for k in range(noted)}  # as if left by traces that ended
    monkeypatch.setattr(bounds, "_npr_RANGES", stale)
    fn = P.conv2d
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        assert_same_as_numpy(fn, np2ref.compile(fn), *CASES["conv2d"][0])
