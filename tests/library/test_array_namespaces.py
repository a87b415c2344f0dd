"""Array-API style code (issue 42): `xp` passed in as NumPy, a module-level alias of NumPy, or the
namespace of the arrays (`x.__array_namespace__()`; array-api-compat's `array_namespace` is not NumPy):
every `xp.` call translates as the `np.` call does, and the result is NumPy's."""

from __future__ import annotations

import functools

import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, program


def programs():
    return program("namespaces")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(programs(), name))


def _check(name, *make):
    theirs, ours = [m() for m in make], [m() for m in make]
    expected, got = getattr(programs(), name)(*theirs), compiled(name)(*ours)
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
        assert_numpys_bits(g, e)
    for a, b in zip(theirs, ours):
        if isinstance(a, np.ndarray):
            assert_numpys_bits(b, a)


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_namespace_passed_in(dtype):
    _check("shift_double", lambda: np.arange(6).astype(dtype), lambda: np)


def test_namespace_functions_that_are_array_methods_too():
    """`xp.sum(x)`: sum is an array method as well; xp is a module (it has zeros_like...)."""
    _check("norms", lambda: np.linspace(-2.0, 3.0, 7), lambda: np)


def test_small_integers_follow_numpys_dtype_rules():
    _check("int_sum", lambda: np.arange(5, dtype=np.int16), lambda: np)


def test_module_level_alias():
    _check("aliased", lambda: np.arange(4.0))
    assert "jnp.zeros_like" in np2ref.convert_source(
        "import numpy as np\nxp = np\ndef f(x):\n    y = xp.zeros_like(x)\n    y[0] = 1\n    return y\n").code


def test_namespace_of_the_array_writes_through_its_view():
    """x.__array_namespace__() is numpy itself: xp.asarray(x) is x, so y[0] = -1 writes x."""
    _check("from_array", lambda: np.arange(4.0))
    assert compiled("from_array").mutated == ("x",)


def test_array_api_compat_namespace_stays_numpy_host_code():
    """array-api-compat's array_namespace(x) is its own wrapper module, not numpy (its clip keeps
    an integer input's dtype where NumPy's gives float64): np2ref does not read it as NumPy, the
    function stays host code (NPR021), and running it is NumPy's own run."""
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("from_compat")(np.arange(5.0))
    assert info.value.diagnostics[0].code == "NPR021" and "array_namespace" in str(info.value)


def test_a_jax_namespace_runs_its_own_functions():
    """With xp=jax.numpy the calls are jax.numpy's (npr_call), not NumPy's translation."""
    got = compiled("norms")(np.linspace(-2.0, 3.0, 7), jnp)
    np.testing.assert_allclose(got, programs().norms(np.linspace(-2.0, 3.0, 7), np))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16, np.uint8])
def test_namespace_called_only_with_array_method_names(dtype):
    """`xp.clip(a, -1, 1.5)` with xp NumPy, and xp used only with names arrays have too: it was read
    as the array's method, npr_np_clip(xp, a, -1, 1.5) (NotImplementedError: out=1.5; fuzz13's
    fuzz_1313f13002): npr_xp tells the module from an array when the program runs."""
    _check("clipped_by_methods", lambda: np.array([-3, 0, 1, 2, 7]).astype(dtype), lambda: np)
    _check("reduced_by_methods", lambda: np.array([-3.5, -0.0, 1.0, 2.25]).astype(dtype), lambda: np)


def test_an_array_parameter_called_with_the_same_names_stays_an_array():
    """The same calls on an array parameter (`b.sum(0)`, `b.clip(a[0], 1.5)`) are its methods."""
    _check("array_methods_of_a_parameter", lambda: np.array([0.5, 2.0]), lambda: np.array([[-2.0, 3.0], [1.0, 0.25]]),
           lambda: np.zeros(2))
    _check("array_methods_of_a_parameter", lambda: np.array([1, 2]), lambda: np.array([[4, -9], [1, 2]], np.int8),
           lambda: np.zeros(2, np.int64))
