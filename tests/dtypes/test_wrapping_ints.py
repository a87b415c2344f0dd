"""Signed integer squares, powers and absolute values that wrap, as NumPy's do (rt/wrapping.py).

XLA's algebraic simplifier takes a signed square and `abs` for non-negative (openxla/xla#41784)
and folded `x * x < 0` to False, `abs(x * x)` to `x * x`, `(x * x) // 8` to a shift: after the
squares wrapped, the translation's answers were not NumPy's (the fuzz regression
tests/regressions/fuzz_8709836ac7.py). Each door the runtime applies those operations through
(operators, the ufuncs, `op=` stores, masked stores, a name's `*=`, the products: np.einsum,
np.dot, np.outer, np.convolve, `@`; slices of run-time length), under the compiled call and
under jax.vmap of `.pure`, on the four signed widths. Differential: NumPy against np2ref."""

import jax
import np2ref
import numpy as np
import pytest

from conftest import ProgramChecks, on_tpu

P = ProgramChecks("wrapping_ints")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
SIGNED = [np.int8, np.int16, np.int32, np.int64]


def _wrapping(dt):
    """Values whose squares wrap (negative ones among them), INT_MIN, INT_MAX and small ones."""
    info = np.iinfo(dt)
    root = int(np.sqrt(info.max)) + 1
    return np.array([info.min, info.max, root, -root, root + 7, 3, -3, 0], dtype=dt)


@pytest.mark.parametrize("dt", SIGNED)
@pytest.mark.parametrize("name", ["operators", "ufuncs", "squared_out", "squared_on_a_name", "products"])
def test_wrapped_squares_are_numpys(name, dt):
    """On a TPU, int16 `(x * x) // 8` came back truncated until the floor's step was decided by
    comparisons, not sign() (rt/wrapping._npr_int_divmod, benchmarks/tpu_int16_floor.py)."""
    if on_tpu() and name == "products" and dt == np.int64:  # (np.convolve: no 64-bit integer one there)
        with pytest.raises(np2ref.Np2RefError, match="NPR302"):
            P.same(name, _wrapping(dt))
        return
    P.same(name, _wrapping(dt))


@pytest.mark.parametrize("dt", SIGNED)
def test_wrapped_squares_of_matrices_and_windows_are_numpys(dt):
    """`s @ s` of 1x1 matrices (a multiply to XLA); a slice of run-time length squared (NprMasked)."""
    P.same("matmul_squares", _wrapping(dt))
    P.same("window_squares", _wrapping(dt), np.array([6]))


@pytest.mark.parametrize("dt", SIGNED)
def test_wrapped_squares_stored_in_place_are_numpys(dt):
    x = _wrapping(dt)
    P.same("squared_in_place", x.copy(), x.copy(), x.copy())


@pytest.mark.parametrize("dt", [np.int32, np.int64])
def test_wrapped_squares_under_vmap_of_pure(dt):
    """The fuzz regression's stage: jax.vmap of .pure (no jaxpr rewrite runs there)."""
    batch = np.stack([_wrapping(dt), _wrapping(dt)[::-1]])
    with jax.enable_x64(True):  # (the caller's own scope: an int64 batch stays int64)
        masks, finals = jax.jit(jax.vmap(P.compiled("squared_out").pure))(batch)
        results, _ = jax.jit(jax.vmap(P.compiled("operators").pure))(batch)
    for k in range(batch.shape[0]):
        b = batch[k].copy()
        np.testing.assert_array_equal(np.asarray(masks[k]), P.module.squared_out(b))
        np.testing.assert_array_equal(np.asarray(finals["b"][k]), b)
        for want, got in zip(P.module.operators(batch[k].copy()), results):
            np.testing.assert_array_equal(np.asarray(got[k]), want)


@pytest.mark.parametrize("dt", [np.int16, np.int32])
def test_wrapped_squares_under_the_float32_policy(dt):
    """dtype_policy="float32" traces a variant of its own (jax.numpy's promotion, wrapping
    products): the operators in the converted text were XLA's there."""
    fn = P.module.operators
    with np.errstate(all="ignore"):
        want = fn(_wrapping(dt))
    got = np2ref.compile(fn, host_below=0, dtype_policy="float32")(_wrapping(dt))
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
