"""np.arange from -0.0: NumPy's fill stores `start` itself as the first element (and start + step
as the second), so `np.arange(-0.0, 0.75, 0.25)[0]` is -0.0 (`1 / v[0]` is -inf); npr_np_arange
computed `start + 0 * delta`, 0.0 (found by fuzz12's exact comparison, a zero's sign, in the
float_sized family: `tv = np.arange(lo, hi, dt)` of a helper called with -0.0). Compared as
NumPy computes: values, the zero's sign, in the call, in `.pure` and under jax.vmap."""

import jax
import numpy as np
import pytest

import np2ref
from np2ref.compare import first_difference
from tests.conftest import on_tpu


def from_minus_zero(x):
    tv = np.arange(-0.0, 0.75, 0.25)
    return tv + x[0] * 0.0, 1.0 / tv[0]


def float32_steps(x):
    tv = np.arange(-0.0, 2.0, 0.1, dtype=np.float32)
    return tv * x[1], np.signbit(tv)


@pytest.mark.parametrize("fn", [from_minus_zero, float32_steps])
def test_arange_keeps_numpys_first_elements(fn):
    if on_tpu() and fn is float32_steps:
        pytest.skip("`tv * x[1]` is float64: a TPU's float64 holds no -0.0 (docs/tpu.md)")
    x = np.array([1.0, 2.0])
    want = fn(x.copy())
    compiled = np2ref.compile(fn, host_below=0)
    assert first_difference(want, compiled(x.copy())) is None
    with jax.enable_x64(True):
        pure = jax.tree_util.tree_map(np.asarray, compiled.pure(x.copy())[0])
        batched = jax.tree_util.tree_map(np.asarray, jax.vmap(compiled.pure)(np.stack([x, x]))[0])
    for got in (pure, tuple(v[1] for v in batched)):
        for w, g in zip(want, got):
            w, g = np.asarray(w), np.asarray(g)
            assert np.array_equal(w, g) and np.array_equal(np.signbit(w), np.signbit(g)), (w, g)
