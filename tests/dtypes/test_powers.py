"""`a ** b` and np.power on integers with a negative exponent raise NumPy's ValueError (also
when the exponent is traced: when the call runs); np.sign(-0.0) is 0.0 as in NumPy."""

import numpy as np
import pytest

import np2ref
from np2ref.pipeline import convert_source
from conftest import assert_same_as_numpy, program

P = program("powers")
K = np.array([2, 3, 0, -1, 5], dtype=np.int64)
MESSAGE = "Integers to negative integer powers are not allowed"


@pytest.mark.parametrize("fn", [P.power_of_arrays, P.power_in_a_loop, P.power_in_place])
def test_a_negative_integer_exponent_raises_as_in_numpy(fn):
    compiled = np2ref.compile(fn)
    ok = np.array([2, 0, 1, 3, 1], dtype=np.int64)
    assert_same_as_numpy(fn, compiled, K, ok)
    bad = np.array([2, 0, 1, -1, 1], dtype=np.int64)
    with pytest.raises(ValueError, match=MESSAGE):
        fn(K.copy(), bad)
    with pytest.raises(ValueError, match=MESSAGE):  # the same compiled program, a traced exponent
        compiled(K.copy(), bad)


def test_float_powers_and_static_exponents_are_unchanged():
    x = np.array([0.5, 2.0, -3.0, 4.0])
    e = np.array([-1, 2, 3, -2], dtype=np.int64)
    assert_same_as_numpy(P.float_powers, np2ref.compile(P.float_powers), x, e, 3)
    text = convert_source(open(P.__file__).read(), P.__file__).code
    assert "npr_pow(k, e)" in text and "e ** 2" in text


def test_sign_of_a_zero_is_positive_as_in_numpy():
    x = np.array([-0.0, 0.0, 2.0, -3.0, np.inf])
    expected, got = assert_same_as_numpy(P.signs, np2ref.compile(P.signs), x)
    for e, g in zip(expected, got):
        assert np.array_equal(np.signbit(e), np.signbit(np.asarray(g)))
