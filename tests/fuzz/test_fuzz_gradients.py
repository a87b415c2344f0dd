"""The runner's gradient check (np2ref/fuzz/gradients.py, fuzz14): a NaN gradient where the program is
differentiable (JAX's double-where problem) and a wrong derivative that forward and reverse mode share
are failures; the check passes the exact gradients np2ref's translation gives, and the where_poles family
writes the forms it is for."""

from __future__ import annotations

import types

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from fuzz_runs import family_tests
from np2ref.fuzz import gradients
from np2ref.fuzz.runner import Runner, _crash, _trace_gap

FORMS = {"where_poles": r"np\.(where|sqrt|log|reciprocal|arcsin|arccos|power|log1p|hypot)\(|\*\* (0\.5|1\.5)",
         "rebound_loop": r"^\s+(u\d*|v\d*), (u\d*|v\d*) = (u\d*|v\d*), (u\d*|v\d*)$|^\s+u\d* = un\d*$",
         "jax_setup": r"np\.(asarray|array)\((j|w)|w\[k\d*\]|j\[k\d*\]",
         "two_names": r"= (same|tail|pair|bumped|rows|pick)\(|^\s+d\d* = [\[({]|dict\(",
         "host_beside": r"print\(|np\.random\.(seed|rand|standard_normal|randint|normal)\("}

test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)

X = np.array([-1.0, 0.25, 2.0, -0.0])


def _module(pure):
    """A program stand-in: make_args gives x (and a written y), `compiled.pure` is `pure`."""
    module = types.SimpleNamespace(make_args=lambda: (X.copy(), np.zeros(4)))
    return module, types.SimpleNamespace(pure=lambda x, y: (jnp.sum(pure(x)), {"y": pure(x)}))


def _check(pure):
    with jax.enable_x64(True):
        return gradients.check_grad(*_module(pure), _trace_gap, _crash)


def test_a_nan_gradient_where_the_program_is_differentiable_fails():
    """np.where(x > 0, np.sqrt(x), 0.0) at x = -1: the program is 0 there, its derivative 0; JAX's
    reverse mode multiplies the cotangent 0 by sqrt's derivative, nan (the double-where problem)."""
    outcome = _check(lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.0))
    assert outcome.kind == "failed" and outcome.stage == "grad" and "reverse mode" in outcome.detail


def test_the_safe_where_passes():
    outcome = _check(lambda x: jnp.where(x > 0, jnp.sqrt(jnp.where(x > 0, x, 1.0)), 0.0))
    assert outcome.kind == "exact" and outcome.graded


def test_a_wrong_derivative_both_modes_share_fails():
    """The dot-product test cannot see it (forward and reverse agree); NumPy's differences do."""
    @jax.custom_jvp
    def square(x):
        return x * x

    square.defjvp(lambda primals, tangents: (square(primals[0]), 3.0 * primals[0] * tangents[0]))
    outcome = _check(square)
    assert outcome.kind == "failed" and "forward mode is not NumPy's derivative" in outcome.detail


def test_a_kink_at_the_point_is_not_judged_by_differences():
    """np.abs at -0.0 (X[3]): the one-sided differences disagree, so only the modes are compared."""
    assert _check(jnp.abs).kind == "exact"


def test_np2refs_where_under_grad_is_exact(tmp_path):
    """np2ref's translation guards the where (npr_where_guarded): the runner's check finds it exact."""
    program = '''
import numpy as np


def f(x, y):
    with np.errstate(invalid='ignore', divide='ignore'):
        y[...] = np.where(x > 0, np.sqrt(x), 0.0) + np.where(x != 0, 1.0 / x, x)
    return y.sum()


def make_args():
    return (np.array([-1.0, 0.25, 2.0, 0.0]), np.zeros(4))
'''
    outcome = Runner(vmap=False, workdir=str(tmp_path)).check(program)
    assert outcome.kind == "exact" and outcome.graded, outcome.describe()


def test_eager_jvp_of_pure():
    def f(x, y):
        y[...] = np.sqrt(np.abs(x))
        return y.sum()

    compiled = np2ref.compile(f)
    with jax.enable_x64(True):
        primal, tangent = jax.jvp(lambda x: compiled.pure(x, np.zeros(3))[0], (np.array([1.0, 4.0, 9.0]),),
                                  (jnp.ones(3),))
    assert np.isclose(float(tangent), 0.5 + 0.25 + 1 / 6)
