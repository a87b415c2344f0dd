"""Builtins whose result on array data is a Python number or bool in NumPy's program (ret11's
probes of returned types):
- `any(x > 0)`, `all(...)`: Python's bool (np2ref returned np.True_: jnp.any of the items);
- `round(v, n)` of a Python float (`round(float(x[0]), 2)`): Python's correctly rounded decimal
  of v's binary value, a Python float. np2ref ran jax.numpy's round (NumPy's algorithm: scale,
  round half even, unscale), whose VALUE differs where the scaled product rounds across a half:
  `round(2.675, 2)` is 2.67 in Python (2.67499999... in binary), 2.68 in jax.numpy, and came back
  np.float64. rt/host.py npr_round computes Python's on the host when the program runs; NumPy's
  scalars keep NumPy's round (`round(x[0], 2)` is np.float64(2.68), as NumPy's own);
- `not v`, a comparison of two Python numbers (`float(x[0]) > dt` with a float dt): Python's bool;
- `divmod(a, b)`, `pow(a, b)`, `sum([...])`, `sum(... for ...)` of Python numbers: Python's int or
  float (`pow(n, -1)` of a Python int from data: NPR031, as `n ** -1`; it was JAX's TypeError)."""

import jax
import numpy as np
import pytest

import np2ref
from tests.conftest import assert_returns_as_numpy


def any_all(x):
    return any(x > 0), all(x > -5), any(x > 100)


def any_bound(x):
    r = all(x < 3)
    return r


def rounded(x):
    return round(float(x[0]), 2)


def rounded_numpy_scalar(x):
    return round(x[0], 2), round(x.astype(np.float32)[1], 1)


def rounded_negative_digits(x):
    return round(float(x[2]), -1), round(int(x[1]), -1), round(int(x[1]), 2)


def rounded_in_a_loop(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += round(float(x[i]), 2)
    return s


def rounded_one_argument(x):
    return round(float(x[0])), round(x[1])


def scaled_by_rounded(x):
    return (x * round(float(x[0]), 1)).sum()


def negated_test(x):
    return not (x[0] > 0), not x[1]


def compared_python_numbers(x, dt):
    return float(x[0]) > dt, int(x[1]) == len(x), x[0] > dt


def divmods(x):
    return divmod(int(x[1]), 4), divmod(int(x[1]), int(x[3] * 16)), divmod(float(x[0]), 0.5), divmod(x[0], 0.5)


def powers(x):
    return pow(float(x[0]), 2), pow(int(x[1]), 3), pow(x[0], 2)


def sums(x):
    return sum([float(x[0]), 1.0]), sum([int(x[1]), 2]), sum(float(x[i]) for i in range(3)), sum(x[:2])


def summed_then_divided(x):
    return sum([float(x[0]), float(x[1])]) / 2


HALVES = np.array([2.675, 15.0, 25.5, 0.125, -1.005, 8.345, 0.285])


@pytest.mark.parametrize("fn", [any_all, any_bound, rounded, rounded_numpy_scalar, rounded_negative_digits,
                                rounded_in_a_loop, rounded_one_argument, scaled_by_rounded], ids=lambda f: f.__name__)
def test_the_builtins_result_is_pythons_or_numpys_as_in_numpy(fn):
    assert_returns_as_numpy(fn, lambda: (HALVES.copy(),))


@pytest.mark.parametrize("fn", [negated_test, divmods, powers, sums, summed_then_divided], ids=lambda f: f.__name__)
def test_builtins_and_operators_of_python_numbers_give_pythons_types(fn):
    assert_returns_as_numpy(fn, lambda: (HALVES.copy(),))


@pytest.mark.parametrize("dt", [0.5, 3.0, np.float64(0.5)], ids=["float", "float_other", "numpy_float"])
def test_a_comparison_of_python_numbers_is_pythons_bool(dt):
    """np.float64 passed for dt: `float(x[0]) > dt` is NumPy's np.bool_, as NumPy's."""
    assert_returns_as_numpy(compared_python_numbers, lambda: (HALVES.copy(), dt))


def test_pow_of_a_python_int_to_a_negative_power_is_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(negative_power, host_below=0)(HALVES.copy())
    assert "NPR031" in str(info.value)


def negative_power(x):
    return pow(int(x[1]), -1)


@pytest.mark.parametrize("v", [2.675, -2.675, 0.285, 1.005, 0.045, 8.345, 1e300, 5e-324, -0.0, np.nan, np.inf])
def test_round_of_a_python_float_is_pythons_correctly_rounded_decimal(v):
    got = np2ref.compile(rounded, host_below=0)(np.array([v]))
    assert type(got) is float and repr(got) == repr(round(v, 2))


def test_round_under_vmap_and_grad():
    """A host call per member under vmap; the derivative of round is zero, as jnp.round's."""
    pure = np2ref.compile(scaled_by_rounded).pure
    xs = np.stack([HALVES, HALVES[::-1]])
    with jax.enable_x64(True):
        got = jax.vmap(lambda x: pure(x)[0])(xs)
        grad = jax.grad(lambda x: pure(x)[0])(HALVES)
    np.testing.assert_array_equal(np.asarray(got), [scaled_by_rounded(x) for x in xs])
    np.testing.assert_array_equal(np.asarray(grad), np.full(HALVES.shape, round(2.675, 1)))


def rounded_to_digits(x, out):
    for i in range(x.shape[0]):
        v = float(x[i])
        out[i, 0] = round(v, 0)
        out[i, 1] = round(v, 1)
        out[i, 2] = round(v, 3)
        out[i, 3] = round(v, 9)
        out[i, 4] = round(v, 17)
        out[i, 5] = round(v, 22)
    return out


def _round_inputs():
    """Random magnitudes, decimals a hair off a half at each digit count (2.675's kind: the exact
    binary value decides), exact halves (ties: half to even), random bit patterns (subnormals, huge,
    NaN, infinities) and the edges of 2**53."""
    rng = np.random.default_rng(12)
    digits = rng.integers(0, 10, 600)
    near = [round(v, int(k)) + s * 0.5 * 10.0 ** -int(k) for v, k, s in
            zip(rng.standard_normal(600) * 100.0, digits, rng.choice([-1.0, 1.0], 600))]
    bits = np.frombuffer(rng.bytes(8 * 400), np.float64)
    edges = [2.675, 0.125, 0.5, 1.5, 2.5, -2.5, 0.285, 1.005, 4503599627370495.5, 9007199254740993.0,
             0.49999999999999994, 5e-324, -0.0, 1e300, 0.1]
    return np.concatenate([rng.standard_normal(400) * 10.0 ** rng.integers(-8, 12, 400), near, bits, edges])


def test_round_to_digits_on_the_device_is_pythons_to_the_bit():
    """rt/pymath._npr_py_round: Python's correctly rounded decimal (half to even on the exact binary
    value) computed on the device for ndigits 0..22, bit for bit against CPython's round()."""
    x = _round_inputs()
    want = rounded_to_digits(x, np.zeros((x.size, 6)))
    got = np2ref.compile(rounded_to_digits, host_below=0)(x, np.zeros((x.size, 6)))
    assert np.array_equal(want.view(np.int64), got.view(np.int64)) or \
        np.array_equal(want, got, equal_nan=True) and np.array_equal(np.signbit(want), np.signbit(got))


def test_round_in_a_loop_makes_no_host_call():
    """One io_callback a trip inside a loop before (benchmarks/round_trips.py: 10,000 trips 7.6 s on
    the host, 0.18 ms on the device); round(v, -1) stays on the host (no device form here)."""
    with jax.enable_x64(True):
        loop = str(jax.make_jaxpr(np2ref.compile(rounded_in_a_loop).pure)(HALVES))
        negative = str(jax.make_jaxpr(np2ref.compile(rounded_negative_digits).pure)(HALVES))
    assert "callback" not in loop and "callback" in negative
