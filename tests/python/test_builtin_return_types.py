"""Builtins whose result on array data is a Python number or bool in NumPy's program (ret11's
probes of returned types):
- `any(x > 0)`, `all(...)`: Python's bool (np2ref returned np.True_: jnp.any of the items);
- `round(v, n)` of a Python float (`round(float(x[0]), 2)`): Python's correctly rounded decimal
  of v's binary value, a Python float. np2ref ran jax.numpy's round (NumPy's algorithm: scale,
  round half even, unscale), whose VALUE differs where the scaled product rounds across a half:
  `round(2.675, 2)` is 2.67 in Python (2.67499999... in binary), 2.68 in jax.numpy, and came back
  np.float64. rt/host.py npr_round computes Python's on the host when the program runs; NumPy's
  scalars keep NumPy's round (`round(x[0], 2)` is np.float64(2.68), as NumPy's own)."""

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


HALVES = np.array([2.675, 15.0, 25.5, 0.125, -1.005, 8.345, 0.285])


@pytest.mark.parametrize("fn", [any_all, any_bound, rounded, rounded_numpy_scalar, rounded_negative_digits,
                                rounded_in_a_loop, rounded_one_argument, scaled_by_rounded], ids=lambda f: f.__name__)
def test_the_builtins_result_is_pythons_or_numpys_as_in_numpy(fn):
    assert_returns_as_numpy(fn, lambda: (HALVES.copy(),))


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
