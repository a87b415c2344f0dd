"""A data-dependent `break` in a `for` ends the loop there (rt/early_exit.py: a while_loop on
the break flag) when no float value goes through the loop; otherwise the fori_loop whose later
iterations do nothing stays, so reverse mode goes through it. Both exact against NumPy."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("early_exit")
X = np.array([0.5, -1.0, 2.0, 3.0, -2.0, 4.0, 1.5])


def _loops(fn, *args):
    """The loop primitives in the jaxpr of `.pure` (nested jaxprs included)."""
    found = []

    def walk(jaxpr):
        for e in jaxpr.eqns:
            if e.primitive.name in ("while", "scan"):
                found.append(e.primitive.name)
            for p in e.params.values():
                for sub in (p if isinstance(p, (tuple, list)) else [p]):
                    inner = getattr(sub, "jaxpr", sub)
                    if hasattr(inner, "eqns"):
                        walk(inner)
    with jax.enable_x64(True):
        walk(jax.make_jaxpr(np2ref.compile(fn).pure)(*args).jaxpr)
    return found


@pytest.mark.parametrize("t", [-5.0, 1.0, 3.5, 9.0])  # break at 0, in the middle, at the end, never
def test_break_is_exact(t):
    assert_same_as_numpy(P.first_above, np2ref.compile(P.first_above), X, t)
    assert_same_as_numpy(P.sum_until, np2ref.compile(P.sum_until), X, t)


def test_continue_and_break_writing_an_int_array():
    compiled = np2ref.compile(P.count_until)
    for x in (X, -X, np.zeros(2)):
        assert_same_as_numpy(P.count_until, compiled, x, np.zeros(x.shape[0], dtype=np.int64))


def test_an_int_only_loop_ends_at_the_break_and_a_float_carry_keeps_the_fori_loop():
    assert _loops(P.first_above, jnp.asarray(X), 1.0) == ["while"]
    assert _loops(P.sum_until, jnp.asarray(X), 1.0) == ["scan"]


def test_grad_and_vmap_through_the_early_exit():
    pure = np2ref.compile(P.first_above).pure
    with jax.enable_x64(True):
        x = jnp.asarray(X)
        for wrap in (lambda f: f, jax.jit):  # grad of jit(pure): the while_loop carries no tangent
            g = jax.grad(lambda v: wrap(pure)(v, 1.0)[0][0])(x)
            assert np.array_equal(np.asarray(g), np.eye(7)[2] * 2.0)
        got = jax.jit(jax.vmap(lambda v: pure(v, 1.0)[0][1]))(jnp.stack([x, -x, x[::-1]]))
    assert np.asarray(got).tolist() == [P.first_above(v, 1.0)[1] for v in (X, -X, X[::-1])]
