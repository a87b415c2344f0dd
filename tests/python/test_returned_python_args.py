"""A Python number passed in and returned as it is comes back as that very number: NumPy's
program returns the caller's object (`return x * dt, dt` gives the float back), where the
compiled call returned np.float64(0.5), so a driver's `repr` and `type()` of it differed (found
beside scripts7's Gillespie script). A returned argument was given back as the caller's own
object for arrays and lists only (rt/result_shape._NprResultShape).
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import on_tpu, result_types


def scaled(x, dt):
    return x * dt, dt


def scaled_complex(x, z):
    return x * z, z


def scaled_first(dt, x):
    return dt, x + dt


CASES = [(scaled, (np.ones(3), 0.5)), (scaled, (np.ones(3), np.float64(0.5))),
         (scaled_complex, (np.ones(3), 1.5 + 2j)), (scaled_first, (0.25, np.arange(3.0)))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_a_python_number_returned_is_the_callers(fn, args):
    if fn is scaled_complex and on_tpu():
        pytest.skip("complex128: NPR302 on a TPU, which has none (docs/tpu.md)")
    compiled = np2ref.compile(fn, host_below=0)
    want = fn(*args)
    for _ in range(2):  # the first call and the planned one after it
        got = compiled(*args)
        assert result_types(got) == result_types(want)
        assert [repr(v) for v in got if not isinstance(v, np.ndarray)] == \
            [repr(v) for v in want if not isinstance(v, np.ndarray)]


def test_a_jax_array_call_gives_the_python_number_back_too():
    got = np2ref.compile(scaled, host_below=0)(jnp.ones(3), 0.5)
    assert type(got[1]) is float and got[1] == 0.5
