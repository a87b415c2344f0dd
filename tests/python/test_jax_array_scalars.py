"""NumPy code handed jax.Arrays by its set-up returns Python scalars where NumPy's does.

`collisions += 1` counted in a loop, `float(x.sum())`, `int(x[0])`: NumPy's program returns a
Python int or float; called with jax.Arrays the compiled function returned them as 0-d
jax.Arrays (unhashable, `repr` Array(3, dtype=int64, weak_type=True)), where a call with NumPy
arrays returned Python's. Arrays come back as NumPy's too (tests/python/test_jax_array_types.py);
`.device` keeps its all-jax answer.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import np2ref


def count_above(ix, level):
    ix = np.asarray(ix)
    collisions = 0
    for k in range(ix.size):
        if ix[k] > level:
            collisions += 1
    return ix * 2, collisions, float(ix.sum()), int(ix[0])


COUNT = np2ref.compile(count_above, host_below=0)


def test_python_scalars_from_jax_arrays():
    j = jnp.arange(6, dtype=jnp.int32)
    want = count_above(np.asarray(j), 2)
    for _ in range(2):  # the first call and the flat run after it
        got = COUNT(j, 2)
        assert type(got[0]) is np.ndarray and got[0].dtype == want[0].dtype
        assert np.array_equal(np.asarray(got[0]), want[0])
        assert [type(v) for v in got[1:]] == [int, float, int] and got[1:] == want[1:]


def test_device_call_stays_jax():
    result, finals = COUNT.device(jnp.arange(6, dtype=jnp.int32), 2)
    assert all(isinstance(v, jax.Array) for v in result) and finals == {}
