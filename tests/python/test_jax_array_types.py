"""NumPy code handed jax.Arrays by JAX set-up code returns NumPy's types, as the original does.

`pos = np.array(pos0)` makes a NumPy array of the caller's jax.Array: the original returns
ndarrays and NumPy scalars, whatever the dtype and x64 setting. The compiled call (np2ref.compile's
and a converted file's function) returned jax.Arrays (float32 ones, every one under x64 on):
the caller's next `vel.sum()` then ran in JAX (another float32 sum), `type(x)` differed, and an
np.float32 came back as a 0-d jax.Array. Now a plain call takes jax.Arrays as they are (no copy
in) and returns NumPy's values; a jax.Array passed and returned unchanged is the caller's object;
`.device` keeps results on the device. A parameter the function writes only by `v *= 2` is
rebound by NumPy code given a jax.Array (jax.Arrays have no in-place operators): the caller's
array stays as it was; an element write raises TypeError there, as in the original."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, load_module, on_tpu, result_types

DT = np.float64(0.05)
NCELL = 4


def push(pos0, vel0, ids0, dt, n):
    pos = np.array(pos0)
    vel = np.array(vel0)
    ids = np.asarray(ids0)
    counts = np.zeros(NCELL, dtype=np.int32)
    for _ in range(n):
        pos = pos + dt * vel  # float64 from the first step (dt a NumPy float64)
        vel *= 0.999
        ids = (ids + 1) % NCELL  # int32 stays int32
        np.add.at(counts, ids, 1)
    return pos, vel, ids, counts, np.sum(vel), vel.dtype.name, int(counts.sum())


def returned(x, s):
    a = np.array(x)
    return x, a * 2, s, a[0] * 3, a.sum()


def rebound(k, w):
    k *= 3  # a jax.Array: rebinds k (the caller's stays); a NumPy array: written in place
    w += 1.5
    return np.array(k).sum(), np.array(w).sum()  # (np.sum(k) of a jax.Array is JAX's k.sum())


def written(v):
    v[0] = 7.0
    return v


PUSH = np2ref.compile(push, host_below=0, bitwise=True)  # (NumPy's roundings: `vel *= 0.999` each step)
RETURNED = np2ref.compile(returned, host_below=0)
REBOUND = np2ref.compile(rebound, host_below=0)
WRITTEN = np2ref.compile(written, host_below=0)


def _set_up(dtype):
    """What JAX set-up code hands the solver: positions, velocities and cell ids."""
    k = jnp.arange(12, dtype=dtype)
    return jnp.sin(k * 0.37) * 0.5 + 0.5, jnp.cos(k * 0.11) * 0.2, (jnp.arange(12, dtype=jnp.int32) * 3) % NCELL


def _types(value):
    """Each leaf's type and dtype (result_types walks containers; jax.Arrays by their class)."""
    if isinstance(value, tuple):
        return [_types(v) for v in value]
    return (type(value), getattr(value, "dtype", None))


def _same_as_numpy(got, want):
    """The same types and dtypes leaf by leaf, NumPy's values (a float32 sum: to its last bits,
    XLA's order, docs/semantics.md)."""
    assert _types(got) == _types(want) and result_types(got) == result_types(want), (got, want)
    for g, w in zip(got, want):
        if on_tpu() and isinstance(w, (np.ndarray, np.floating)) and w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-6)  # (the chip folds `vel *= 0.999` five times: 5.6e-9)
        elif isinstance(w, np.floating):
            np.testing.assert_allclose(g, w, rtol=8 * np.finfo(w.dtype).eps)
        elif isinstance(w, (np.ndarray, np.generic)):
            assert_numpys_bits(g, w)
        else:
            assert g == w


@pytest.mark.parametrize("x64", [False, True])
def test_float32_and_int32_jax_arrays_give_numpys_types(x64):
    with jax.enable_x64(x64):
        pos, vel, ids = _set_up(jnp.float32)
        want = push(pos, vel, ids, DT, 5)
        for _ in range(3):  # the first call, the plan's, the flat run's
            got = PUSH(pos, vel, ids, DT, 5)
            _same_as_numpy(got, want)
        assert on_tpu() or got[1].sum() == want[1].sum()  # NumPy's float32 sum, not JAX's
        assert type(got[4]) is np.float32  # an np.float32, not a 0-d jax.Array


@pytest.mark.parametrize("x64", [False, True])
def test_an_argument_returned_is_the_callers_own_jax_array(x64):
    with jax.enable_x64(x64):
        x, s = jnp.arange(5, dtype=jnp.int32), jnp.float32(2.5)  # (s: a 0-d jax.Array)
        want = returned(x, s)
        for _ in range(3):
            got = RETURNED(x, s)
            assert got[0] is x and got[2] is s
            _same_as_numpy(got[1:2] + got[3:], want[1:2] + want[3:])


def test_device_keeps_jax_arrays():
    pos, vel, ids = _set_up(jnp.float32)
    result, finals = PUSH.device(pos, vel, ids, DT, 5)
    assert all(isinstance(v, jax.Array) for v in result[:5]) and finals == {}


@pytest.mark.parametrize("x64", [False, True])
def test_a_jax_array_written_by_op_assign_is_rebound(x64):
    with jax.enable_x64(x64):
        k, w = jnp.arange(4, dtype=jnp.int32), jnp.ones(3, dtype=jnp.float32)
        want = rebound(k, w)  # NumPy code on jax.Arrays: `k *= 3` binds k anew
        for _ in range(2):
            got = REBOUND(k, w)
            _same_as_numpy(got, want)
            assert np.array_equal(k, np.arange(4)) and np.array_equal(w, np.ones(3))  # the caller's, unchanged
    a, b = np.arange(4, dtype=np.int32), np.ones(3, dtype=np.float32)
    assert REBOUND(a, b) == (18, 7.5) and np.array_equal(a, np.arange(4) * 3)  # NumPy arrays: written


def test_a_jax_array_written_by_element_is_numpys_type_error():
    with pytest.raises(TypeError):
        written(jnp.zeros(3))  # the original: JAX arrays are immutable
    with pytest.raises(TypeError):
        WRITTEN(jnp.zeros(3))


CONVERTED = '''
import numpy as np


def push(pos0, vel0, dt, n):
    pos = np.array(pos0)
    vel = np.array(vel0)
    for _ in range(n):
        pos = pos + dt * vel
        vel *= 0.5
    return pos, vel, vel.sum(), vel0
'''


def test_a_converted_files_function_gives_numpys_types(tmp_path):
    result = np2ref.convert_source(CONVERTED)
    assert not result.diagnostics
    converted = load_module(result.code, tmp_path)
    original = load_module(CONVERTED, tmp_path)
    with jax.enable_x64(False):
        pos, vel, _ = _set_up(jnp.float32)
        want = original.push(pos, vel, DT, 3)
        for _ in range(2):
            got = converted.push(pos, vel, DT, 3)
            assert got[3] is vel
            _same_as_numpy(got[:3], want[:3])
