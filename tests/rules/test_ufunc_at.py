"""ufunc .at inside a compiled function: np.divide.at and the other ufunc .at without a scatter
combiner apply repeated indices one after another, np.add/subtract/multiply.at keep NumPy's
order of repeated indices, and np.divide.at's gradient against central differences.
Differential: the original against np2ref.compile of it (tests/programs/ufunc_at_and_selections.py)."""

import functools
import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, central_differences, program

P = program("ufunc_at_and_selections")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


_I = np.array([0, 1, 1, 3, 1, 0, 4, 1, 1, 1])


def _values(n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * rng.choice([1e-8, 1.0, 1e8], n)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_divide_at_applies_repeated_indices_one_after_another(dtype):
    """np.divide.at(a, i, v) is a[i] / v1 / v2 for a repeated i, which is not a[i] / (v1 * v2)
    in floating point: applied one element at a time, the bits are NumPy's."""
    rng = np.random.default_rng(0)
    a, v = rng.uniform(1, 9, 5).astype(dtype), rng.uniform(1.1, 9.7, _I.size).astype(dtype)
    expected = P.divide_at(a.copy(), _I, v)
    d = np.ones(5, dtype)
    np.multiply.at(d, _I, v)
    assert not np.array_equal(a / d, expected)  # (the values do tell the two orders apart)
    got = compiled("divide_at")(a.copy(), _I, v)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("name", ["add_at", "subtract_at", "multiply_at"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_scatter_ufunc_at_keeps_numpys_order_of_repeated_indices(name, dtype):
    """add/subtract/multiply.at go through one XLA scatter: XLA:CPU applies its updates in order,
    so a[i] + v1 + v2 (not a[i] + (v1 + v2)), NumPy's bits; measured on CPU only (the order of a
    GPU scatter's duplicate updates is not NumPy's: see the report of round 7)."""
    a = _values(5, 3, dtype) * 1e3
    big = 1e16 if dtype == np.float64 else 1e8  # a[0] + big - big is 0, a[0] + (big - big) is a[0]
    v = (1 + _values(_I.size, 4, dtype) * 1e-9).astype(dtype) if name == "multiply_at" else \
        np.array([big, big, -big, 2.0, 0.5, -big, 1.5, 0.25, 3.0, 1.0], dtype)
    expected = getattr(P, name)(a.copy(), _I, v)
    combined = np.ones(5, dtype) if name == "multiply_at" else np.zeros(5, dtype)
    getattr(np, "multiply" if name == "multiply_at" else "add").at(combined, _I, v)
    reassociated = a * combined if name == "multiply_at" else a + combined if name == "add_at" else a - combined
    assert not np.array_equal(reassociated, expected)  # (the values do tell the two orders apart)
    got = compiled(name)(a.copy(), _I, v)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("name, a, v", [
    ("floor_divide_at", np.array([7.5, -3.0, 9.0, 4.0, 1.0]), np.array([2.0, 0.0, -1.5, 3.0, 0.5, 2.0, -1.0, 2.0, 3.0, 1.5])),
    ("floor_divide_at", np.array([7, -3, 9, 4, 1]), np.array([2, 0, -2, 3, 1, 2, -1, 2, 3, 1])),
    ("remainder_at", np.array([7.5, -3.0, 9.0, 4.0, 1.0]), np.array([2.0, 0.5, -1.5, 3.0, 0.5, 2.0, -1.0, 2.0, 3.0, 1.5])),
    ("remainder_at", np.array([7, -3, 9, 4, 1], np.int32), np.array([2, 5, -2, 3, 1, 2, -1, 2, 3, 1], np.int32)),
    ("power_at", np.array([2, 3, 1, 4, 5]), np.array([2, 1, 3, 1, 2, 1, 2, 1, 1, 2])),
    ("logical_or_at", np.array([0.0, 0.0, 2.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0])),
    ("bitwise_xor_at", np.array([7, 3, 9, 4, 1], np.uint8), np.array([2, 5, 6, 3, 1, 2, 7, 2, 3, 1], np.uint8)),
    ("divide_at", np.array([7, -3, 9, 4, 1]), np.array([2.0, 4.0, -1.5, 3.0, 0.5, 2.0, -1.0, 2.0, 3.0, 1.5])),
    ("divide_at", np.array([True, False, True, True, False]), np.array([2.0, 0.5, 0.0, 3.0, 0.5, 2.0, 1.0, 2.0, 3.0, 1.5])),
], ids=["floor_float", "floor_int_by_zero", "remainder_float", "remainder_int32", "power_int", "logical_or_float",
        "xor_uint8", "divide_into_int", "divide_into_bool"])
def test_other_ufunc_at_match_numpy(name, a, v):
    """The ufuncs with no scatter combiner, in NumPy's order, computed in NumPy's result type and
    cast back into a's dtype after each element (floats into ints: x86-64's cast)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own, from // 0
        assert_same_as_numpy(getattr(P, name), compiled(name), a, _I, v)


def test_divide_at_gradient_is_numpys():
    x, v = np.array([1.5, -2.0, 3.0, 0.5, 4.0]), _values(_I.size, 5) * 0 + np.linspace(1.1, 2.9, _I.size)
    pure = compiled("divided_energy").pure
    with jax.enable_x64(True):
        gx, gv = (np.asarray(g) for g in jax.jit(jax.grad(lambda a, b: pure(a, _I, b)[0], argnums=(0, 1)))(x, v))
    assert np.allclose(gx, central_differences(lambda y: P.divided_energy(y, _I, v), x), rtol=1e-6)
    assert np.allclose(gv, central_differences(lambda w: P.divided_energy(x, _I, w), v), rtol=1e-6)
