"""XLA's rewrites that change NumPy's answers are fenced in the program `.pure` runs under the
caller's jax.jit, jax.vmap and derivatives too, not only in the compiled call's (rt/pure_fences.py):
before, jax.vmap(f.pure) gave nan * False as 0.0 (fuzz_1212f1a004) and every other fence kind
was missing there. Each program of tests/programs/pure_fences.py (one per fence kind, and the -0.0
folds) runs every way against NumPy: values, dtypes and the signs of zeros."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import on_tpu, program
from np2ref.compare import first_difference

P = program("pure_fences")
_grid = np.round(np.arange(2000) * 0.001, 3)

CASES = {  # name: the arguments (the first: float data, batched under vmap)
    "bool_factor": (np.array([np.nan, np.inf, -np.inf, 1.5]), np.array([False, False, True, False])),
    "zero_add": (np.array([-0.0, 2.0, -0.0]),),
    "quotient_cells": (np.round(np.arange(400) * 0.1, 1),),
    "constant_chain": (np.round(np.arange(400) * 0.1, 1),),
    "log_of_exp": (np.array([800.0, 1.0, -3.0]),),
    "abs_at_least_zero": (np.array([np.nan, -1.0, 0.0]),),
    "zeros_added": (np.array([-0.0, 1.0, -0.0]),),
    "zeros_in_loop": (np.full((3, 1), -0.0),),
    "one_row_sum": (np.full((2, 1024), -0.0),),
    "one_element_sums": (np.full((3, 4), -0.0),),
    "leading_rows_sum": (np.full((3, 1024), -0.0),),
}
NEW = {"zeros_added", "zeros_in_loop", "one_row_sum", "one_element_sums", "leading_rows_sum"}  # wrong in the call too


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


def _check(name, got, args):
    want = getattr(P, name)(*[a.copy() for a in args])
    diff = first_difference(want, jax.tree_util.tree_map(np.asarray, got), name, kinds=False)
    assert diff is None, diff


def _ways(name):
    pure = compiled(name).pure

    def vjp(x, *rest):  # the primal values of reverse mode (jax.grad's, jax.vjp's)
        return jax.vjp(lambda x: pure(x, *rest)[0], x)[0]

    def jvp(x, *rest):
        return jax.jvp(lambda x: pure(x, *rest)[0], (x,), (jnp.ones_like(x),))[0]

    return {"jit": jax.jit(lambda *a: pure(*a)[0]), "vjp": jax.jit(vjp), "jvp": jax.jit(jvp),
            "vmap": lambda *a: jax.vmap(lambda *a: pure(*a)[0])(*(np.stack([v, v]) for v in a)),
            "jit_vmap": lambda *a: jax.jit(jax.vmap(lambda *a: pure(*a)[0]))(*(np.stack([v, v]) for v in a))}


WAYS = ("jit", "vjp", "jvp", "vmap", "jit_vmap")


@pytest.mark.skipif(on_tpu(), reason="a TPU's float64 holds no -0.0, nor NumPy's rounding of each step (docs/tpu.md)")
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_pure_runs_the_fenced_program(name, way):
    args = CASES[name]
    with jax.enable_x64(True):
        got = _ways(name)[way](*[jnp.asarray(a) for a in args])
    if way in ("vmap", "jit_vmap"):
        for k in range(2):
            _check(name, jax.tree_util.tree_map(lambda v: v[k], got), args)
    else:
        _check(name, got, args)


@pytest.mark.skipif(on_tpu(), reason="a TPU's float64 holds no -0.0 (docs/tpu.md)")
@pytest.mark.parametrize("name", sorted(NEW))
def test_the_compiled_call_keeps_numpys_zero(name):
    args = CASES[name]
    _check(name, compiled(name)(*[a.copy() for a in args]), args)


@pytest.mark.skipif(on_tpu(), reason="a TPU's float64 holds no -0.0 (docs/tpu.md)")
@pytest.mark.parametrize("name", sorted(CASES))
def test_device_runs_the_fenced_program(name):
    args = CASES[name]
    with jax.enable_x64(True):
        got = compiled(name).device(*[jnp.asarray(a) for a in args])[0]
    _check(name, got, args)


def test_the_derivative_is_jaxs_rule():
    """Under grad the values are the fenced program's and the derivative is the traced one's: the
    fence (a select, a barrier) changes no tangent."""
    pure = compiled("bool_factor").pure
    x, b = (jnp.asarray(a) for a in CASES["bool_factor"])
    with jax.enable_x64(True):
        value, grad = jax.jit(jax.value_and_grad(lambda x: pure(x, b)[0][1]))(jnp.asarray(x))
    assert np.isnan(value)  # 1.0 - nan * False
    np.testing.assert_array_equal(np.asarray(grad), [-0.0, 0.0, 0.0, 0.0])
