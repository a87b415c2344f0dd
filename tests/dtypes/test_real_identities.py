"""Identities of real numbers XLA's simplifier applies (ln(exp(A)) => A, ln(pow(A, B)) =>
B * ln(|A|), exp(A) * exp(B) => exp(A + B), exp(A) / exp(B) => exp(A - B), sqrt(A * A) => |A|)
are not NumPy's where a value overflows, is NaN or a zero: `np.log(np.exp(800.0))` is inf, XLA's
fold 800.0; `np.log((-2.0) ** 1.5)` NaN, XLA's 1.04. rt/divisions.py fences the inner result
wherever it is (a select: docs/semantics.md, "Floating point"). Inputs stay clear of subnormal
results (XLA flushes those to zero)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, on_tpu, program

# float64 beyond float32's exponent range does not exist on a TPU (a float32 pair, docs/tpu.md):
# exp(89.0) is inf there, so the overflows these tests are about happen elsewhere
_RANGE = pytest.mark.skipif(on_tpu(), reason="a TPU's float64 has float32's exponent range (docs/tpu.md)")

P = program("real_identities")
GRID = np.arange(-7000, 8000) / 10.0  # exp overflows above 709.78; no subnormal exp(x) (x > -708)
RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def _quiet():
    with np.errstate(all="ignore"):
        yield


@pytest.mark.parametrize("dtype", [pytest.param(np.float64, marks=_RANGE), np.float32])
def test_a_log_of_an_exp_overflows_as_numpy(dtype):
    x = GRID.astype(dtype) if dtype == np.float64 else (GRID[GRID > -600] / 8).astype(dtype)  # exp(x) > 1e-38
    assert_same_as_numpy(P.finite_log_weights, np2ref.compile(P.finite_log_weights, host_below=0), x)


def test_a_log_of_a_negative_power_is_nan():
    x = np.linspace(-3.0, 3.0, 6001)
    assert_same_as_numpy(P.log_of_a_power, np2ref.compile(P.log_of_a_power, host_below=0), x)


@_RANGE
def test_exp_products_overflow_as_numpy():
    a, b = RNG.permutation(GRID), RNG.permutation(GRID)
    assert_same_as_numpy(P.overflowing_products, np2ref.compile(P.overflowing_products, host_below=0), a, b)


def test_a_ratio_of_exps_is_nan_where_both_overflow():
    a = np.repeat([800.0, 900.0, -800.0, -900.0, 1.0], 5)
    b = np.tile([800.0, 900.0, -800.0, -900.0, 1.0], 5)
    assert_same_as_numpy(P.ratio_of_weights, np2ref.compile(P.ratio_of_weights, host_below=0), a, b)


@_RANGE
def test_a_root_of_a_square_overflows_as_numpy():
    y = np.concatenate([RNG.standard_normal(1000) * 1e200, RNG.random(1000)])
    assert_same_as_numpy(P.radii_that_overflow, np2ref.compile(P.radii_that_overflow, host_below=0), y)


@_RANGE
def test_an_identity_in_a_loop_body():
    x = GRID[GRID > 0] / 4  # 200 * 4 trips: above 709.78 on the third
    assert_same_as_numpy(P.log_likelihood_in_a_loop, np2ref.compile(P.log_likelihood_in_a_loop, host_below=0), x, 3)


SPECIAL = np.array([np.nan, 1.0, -0.0, 0.0, 1e308, -1e308, 1.7e308, 3.0, np.inf, -np.nan])


def test_an_absolute_value_compared_with_zero_is_false_for_nan():
    """XLA's simplifier takes abs(A) >= 0 as true."""
    assert_same_as_numpy(P.count_valid, np2ref.compile(P.count_valid, host_below=0), SPECIAL)


def test_a_product_divided_back_overflows_as_numpy():
    """(x * 2.0) / 2.0 is x to XLA (x * 2.0 * 0.5): NumPy's x * 2.0 overflows to inf first."""
    assert_same_as_numpy(P.doubled_and_halved, np2ref.compile(P.doubled_and_halved, host_below=0), SPECIAL)


def test_adding_a_zero_clears_a_negative_zero_as_numpy():
    fn = P.signs_of_a_shifted_zero
    if on_tpu():  # a float64 sign-bit read is refused there (NPR302, docs/tpu.md)
        with pytest.raises(np2ref.Np2RefError, match="NPR302"):
            np2ref.compile(fn, host_below=0)(SPECIAL)
        return
    for bitwise in (False, True):
        assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0, bitwise=bitwise), SPECIAL)
