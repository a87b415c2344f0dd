"""np2ref.compile(..., bitwise=True): elementwise float kernels bit-identical to NumPy, where
XLA:CPU's defaults (FMA contraction, division by a constant as a multiplication) are not."""

from __future__ import annotations

import functools
import importlib.util
import sys

import jax
import numpy as np
import pytest

import np2ref
from conftest import ROOT

pytestmark = pytest.mark.skipif(jax.default_backend() != "cpu", reason="measures XLA:CPU's rewrites")


@functools.cache
def kernels():
    path = ROOT / "tests" / "programs" / "bitwise.py"
    spec = importlib.util.spec_from_file_location("np2ref_bitwise_kernels", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@functools.cache
def compiled(name, bitwise):
    return np2ref.compile(getattr(kernels(), name), bitwise=bitwise)


def inputs(n=4096, dtype=np.float64):
    rng = np.random.default_rng(16)
    return tuple(rng.standard_normal(n).astype(dtype) for _ in range(3))


def same_bits(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fma_kernel_is_bit_identical(dtype):
    a, b, c = inputs(dtype=dtype)
    assert same_bits(compiled("fma", True)(a, b, c), kernels().fma(a, b, c))


def test_pure_under_the_users_jit_with_the_bitwise_options():
    a, b, c = inputs()
    with jax.enable_x64(True):
        result, _ = jax.jit(compiled("fma", False).pure, compiler_options=np2ref.BITWISE_OPTIONS)(a, b, c)
    assert same_bits(result, kernels().fma(a, b, c))


def test_division_by_a_constant_is_bit_identical_and_the_default_is_not():
    (a, _, _) = inputs()
    expected = kernels().divide_by_constant(a)
    assert same_bits(compiled("divide_by_constant", True)(a), expected)
    # XLA's algebraic simplifier rewrites x / 9.0 as x * (1 / 9.0) on every CPU: the default
    # compile differs in the last bit (about a third of the elements; the quotient reaches no
    # decision, so it is not fenced), and bitwise=True of the same function in the same process
    # did not change it (the options are per compile)
    default = compiled("divide_by_constant", False)(a)
    assert not same_bits(default, expected)
    assert np.allclose(default, expected, rtol=1e-15, atol=0)


def test_in_place_update_is_bit_identical_with_write_back():
    u, v, _ = inputs()
    expected = u.copy()
    kernels().diffuse(expected, v, 0.1)
    got = u.copy()
    assert compiled("diffuse", True)(got, v, 0.1) is None
    assert same_bits(got, expected)
    assert compiled("diffuse", True).bitwise and not compiled("diffuse", False).bitwise


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_squares_and_reciprocals_are_numpys_without_the_simplifier(dtype):
    """bitwise=True turns XLA's simplifier off, which made pow(a, 2.0) a * a: XLA's own pow
    rounded 77 of 100,000 float64 squares otherwise (benchmarks/xla_folds.py)."""
    (a, _, _) = inputs(n=100_000, dtype=dtype)
    for p in (2.0, -1.0):
        expected = kernels().fast_powers(a, dtype(p))
        got = compiled("fast_powers", True)(a, dtype(p))
        assert all(same_bits(g, e) for g, e in zip(got, expected))
