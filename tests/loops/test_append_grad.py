"""Reverse mode through a loop that stacks appended values (rt/appends.py) where a value appended
is a constant of the trip (`k * 0.5`, a name bound to one, read back as `hist[-1]`): the buffers
were closed-over refs npr_for's differentiated path did not see, so JAX 0.10.2's transpose of the
constant stored into them raised "DynamicJaxprTracer has no attribute accum" (jax #33987; found
by `np2ref fuzz --family last_append`). jax.grad and jax.vjp of `.pure` against the derivative
NumPy's program has, and the values against NumPy's."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref


def halve_and_shift(U):
    hist = []
    for k in range(U.shape[0]):
        hist.append(k * 0.5)
        U[...] = U * 0.5 + hist[-1]
    return hist


def named_first(U):
    hist = []
    for k in range(U.shape[0]):
        x = k * 0.25
        hist.append(x)
        U[...] = U * 0.5 + x
    return hist


@pytest.mark.parametrize("fn", [halve_and_shift, named_first])
def test_reverse_mode_through_a_loop_appending_constants(fn):
    compiled = np2ref.compile(fn)
    u = np.array([0.0, 0.75, -1.5])
    want_u, want = u.copy(), fn(u.copy())  # (NumPy's program writes its argument)
    fn(want_u)
    with jax.enable_x64(True):
        got, finals = jax.jit(compiled.pure)(jnp.asarray(u))
        grad = jax.grad(lambda x: jnp.sum(compiled.pure(x)[1]["U"] * jnp.arange(1.0, 4.0)))(jnp.asarray(u))
    np.testing.assert_array_equal(np.asarray(finals["U"]), want_u)
    assert [float(v) for v in got] == want
    np.testing.assert_allclose(np.asarray(grad), 0.5 ** 3 * np.arange(1.0, 4.0), rtol=1e-15)
