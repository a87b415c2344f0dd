"""A float32 quotient (or multiply-add) widened to float64 is NumPy's: a widening cast decides,
as a comparison does (rt/divisions.py `_npr_widens`), so the division is fenced and runs as a
division. Before session 14, 328 of 1,001 quotients `(x / d).astype(np.float64)` and 54 of 1,001
products `x * 0.1 + x` stored into a float64 array differed from NumPy's (fuzz_1313f13007)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, on_tpu, program

P = program("widened_float32")
X = np.linspace(-3, 3, 1001).astype(np.float32)

pytestmark = pytest.mark.skipif(on_tpu(), reason="a TPU rounds float32 division its own way (docs/tpu.md)")


def test_a_quotient_stored_into_a_float64_array():
    x = np.array([0.0, -1.25, 0.25, 1.75, 1.25], dtype=np.float32)
    assert_same_as_numpy(P.quotient_stored, np2ref.compile(P.quotient_stored), x, np.zeros(5))
    assert_same_as_numpy(P.quotient_stored, np2ref.compile(P.quotient_stored), X, np.zeros(X.size))


def test_a_quotient_by_a_traced_divisor_cast():
    fn = P.quotient_cast
    assert_same_as_numpy(fn, np2ref.compile(fn), X, np.float32(3.0))


def test_a_masked_quotient_multiplied_into_float64():
    fn = P.quotient_masked
    assert_same_as_numpy(fn, np2ref.compile(fn), X.astype(np.float64), np.ones(X.size), X > 0)


def test_a_multiply_add_stored_into_a_float64_array():
    fn = P.product_added
    assert_same_as_numpy(fn, np2ref.compile(fn), X, np.zeros(X.size))


def test_a_quotient_widened_by_promotion():
    fn = P.quotient_widened_in_a_sum
    assert_same_as_numpy(fn, np2ref.compile(fn), X, np.zeros(X.size))


def test_a_float32_quotient_kept_float32_is_within_float32s_last_bit():
    fn = P.quotient_kept_float32
    assert_same_as_numpy(fn, np2ref.compile(fn), X)
