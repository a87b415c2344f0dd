"""`//`, `%`, np.floor_divide, np.remainder and np.divmod on arrays: NumPy's integer division by
zero (0, where jax.numpy gives -1) and NumPy's signed zeros, through the operator, `op=`, the
functions and a lax loop. Differential against the original NumPy functions."""

import functools
import warnings

import numpy as np
import pytest

import np2ref
from np2ref.pipeline import convert_source
from conftest import assert_same_as_numpy, on_tpu, program

P = program("division")

INTS = np.array([-7, 7, 0, 5, -1, 3], dtype=np.int64)
DIVISORS = np.array([0, 0, 0, 2, -1, -2], dtype=np.int64)
FLOATS = np.array([-0.0, 0.0, 1.0, -1.0, 7.5, np.inf])
FLOAT_DIVISORS = np.array([1.0, -1.0, np.inf, 0.0, -2.0, 3.0])


def _signs_agree(expected, got):
    """NumPy's signed zeros; not on a TPU's float64, which holds no -0.0 (docs/tpu.md)."""
    for e, g in zip(expected, got):
        if on_tpu() and np.asarray(e).dtype == np.float64:
            continue
        e, g = np.asarray(e), np.asarray(g)
        if e.dtype.kind == "f":
            keep = ~np.isnan(e)  # a NaN's sign bit is not a value
            assert np.array_equal(np.signbit(e[keep]), np.signbit(g[keep])), (e, g)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns on the zero divisors
        yield


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_integer_division_by_zero_is_zero_as_in_numpy(dtype):
    a, b = np.abs(INTS).astype(dtype), np.abs(DIVISORS).astype(dtype)
    for fn in (P.floordiv_operator, P.floordiv_functions):
        expected, got = assert_same_as_numpy(fn, np2ref.compile(fn), a, b)
        assert (np.asarray(got[0])[:3] == 0).all()  # the zero divisors
    assert_same_as_numpy(P.floordiv_in_place, np2ref.compile(P.floordiv_in_place), a, b)


def test_signed_integers_and_floats_with_signed_zeros():
    for fn in (P.floordiv_operator, P.floordiv_functions):
        compiled = np2ref.compile(fn)
        assert_same_as_numpy(fn, compiled, INTS, DIVISORS)
        expected, got = assert_same_as_numpy(fn, compiled, FLOATS, FLOAT_DIVISORS)
        _signs_agree(expected, got)
    a0, a1 = FLOATS.copy(), FLOATS.copy()
    expected = P.floordiv_in_place(a0, FLOAT_DIVISORS)
    got = np2ref.compile(P.floordiv_in_place)(a1, FLOAT_DIVISORS)
    _signs_agree([expected, a0], [got, a1])


def test_division_by_a_value_read_in_a_lax_loop():
    idx = np.array([5, 9, 3, 7, 0, 2], dtype=np.int64)
    width = np.array([2, 0, 1, 0, 3, 4], dtype=np.int64)
    assert_same_as_numpy(P.bucket_counts, np2ref.compile(P.bucket_counts), idx, width)


def test_literal_divisors_keep_numpys_signed_zeros():
    big = 2.0 ** 40 + 3.0 if on_tpu() else 1e300  # (a TPU's float64: float32's range, 48 bits)
    for a in (INTS, FLOATS, np.array([-4.0, -0.0, 3.0, -3.0, -1.0, big])):
        expected, got = assert_same_as_numpy(P.floordiv_by_literal, np2ref.compile(P.floordiv_by_literal), a)
        _signs_agree(expected[:4] + expected[4], got[:4] + tuple(got[4]))


def test_only_integer_expressions_by_positive_literals_stay_operators():
    text = convert_source(open(P.__file__).read(), P.__file__).code
    assert "npr_floordiv(a, 2), npr_floordiv(a, -3), npr_mod(a, 5)" in text
    assert "y = npr_mod(y, 2)" in text and "npr_divmod(a, 2.0)" in text
    assert "npr_floordiv(a, b), npr_floordiv(b, a)" in text
    assert "jnp.zeros(n // 2)" in text and "(i * 3) % n" not in text  # n: not a literal divisor
    assert "n - 1 - i // 2" in text and '"%d" % n' in text
    x = np.arange(7.0)
    assert_same_as_numpy(P.integer_index_arithmetic, np2ref.compile(P.integer_index_arithmetic), x)


def _every_sign(dt):
    """Dividends and divisors of every sign, zero, INT_MIN and INT_MAX, each against each."""
    info = np.iinfo(dt)
    values = np.array([info.min, info.min + 1, -9, -8, -7, -1, 0, 1, 7, 8, 9, info.max], dtype=dt)
    return np.repeat(values, values.size), np.tile(values, values.size)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_signed_floors_of_every_sign_pair_are_numpys(dtype):
    """The quotient's step toward -inf is decided by comparisons, not jax.numpy's sign() (a TPU's
    int16 sign() of a wrapped square read +1 for negative values: rt/wrapping._npr_int_divmod)."""
    a, b = _every_sign(dtype)
    for name in ("floordiv_operator", "floordiv_functions", "floordiv_in_place"):
        fn = getattr(P, name)
        assert_same_as_numpy(fn, _jitted(name), a.copy(), b.copy())


@functools.cache
def _jitted(name):
    return np2ref.compile(getattr(P, name), host_below=0)
