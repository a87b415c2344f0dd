"""NumPy code handed float32 jax.Arrays by JAX set-up code (x64 off, JAX's default) returns its
64-bit results as NumPy arrays: a float64 jax.Array handed back was one the caller's JAX then
computed on in float32 (scripts6's particles: `pos.sum()` printed 24.319515 for NumPy's
24.31951670415001). 32-bit results stay jax.Arrays, and a caller in 64 bits (x64 on, or passing
64-bit jax.Arrays: a device time loop) gets jax.Arrays as before (rt/arguments.npr_for_caller)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import np2ref
from conftest import on_tpu


def push(pos0, vel0, dt, n):
    pos = np.array(pos0)
    vel = np.array(vel0)
    for _ in range(n):
        pos = pos + dt * vel  # float64 from the first step (dt a NumPy float64)
        vel *= 0.999
    return pos, vel, pos.sum()


PUSH = np2ref.compile(push, host_below=0, bitwise=True)  # (NumPy's roundings: vel *= 0.999 five times)
DT = np.float64(0.05)


def _inputs(dtype):
    k = np.arange(16, dtype=dtype)
    return np.sin(k * 0.37), np.cos(k * 0.11) * 0.2


def test_64_bit_results_are_numpys_for_a_32_bit_caller():
    pos, vel = _inputs(np.float32)
    want = push(pos, vel, DT, 5)
    with jax.enable_x64(False):  # (JAX's default; another module of the worker may have turned it on)
        got = PUSH(jnp.asarray(pos), jnp.asarray(vel), DT, 5)
    assert type(got[0]) is np.ndarray and got[0].dtype == np.float64
    assert isinstance(got[1], jax.Array) and got[1].dtype == jnp.float32  # (32 bits: the caller's)
    assert type(got[2]) is np.float64
    if on_tpu():  # bitwise=True is XLA:CPU's: the chip folds `vel *= 0.999` five times (1 float32 ulp)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-8)
        return
    assert abs(got[2] - want[2]) <= 1e-15 * abs(want[2])  # (XLA's sum order)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[0].sum() == want[0].sum()  # NumPy's float64 sum, not JAX's float32 one


def test_a_64_bit_caller_keeps_jax_arrays():
    pos, vel = _inputs(np.float32)
    with jax.enable_x64(True):
        got = PUSH(jnp.asarray(pos), jnp.asarray(vel), DT, 5)
        assert all(isinstance(v, jax.Array) for v in got[:2]) and got[0].dtype == jnp.float64
    with jax.enable_x64(True):
        pos64, vel64 = jnp.asarray(pos, jnp.float64), jnp.asarray(vel, jnp.float64)
    with jax.enable_x64(False):
        got = PUSH(pos64, vel64, DT, 5)  # (x64 off, but 64-bit jax.Arrays passed: a device loop's)
    assert isinstance(got[0], jax.Array) and got[0].dtype == jnp.float64
