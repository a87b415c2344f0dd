"""np.pi, np.e, np.inf and np.nan are Python floats (`type(np.inf) is float`): a function of
Python floats that uses one returns a Python float in NumPy's program (scripts14a's
plume_advection_diffusion `time_step`: `cfl * DX / speed if speed > 0 else np.inf`, then `min`).
np2ref.compile returns np.float64: analysis/collect.py counts any name of the numpy module as
array work (`uses_numpy`), so the function is not left to run as written (module._touches_arrays,
`plain`), and rules/param_arithmetic takes only `math.` constants for Python numbers
(MATH_CONSTANTS). Saved as strict xfails for kinds14b (Python numbers vs NumPy scalars in
returns); the fix counts `np.<constant>` as a float literal in both places."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from np2ref.compare import first_difference


def pi_times(x):
    return np.pi * x


def inf_when_calm(speed):
    return 2.0 / speed if speed > 0 else np.inf


def min_of_limits(speed):
    dt_adv = 0.45 * 400.0 / speed if speed > 0 else np.inf
    return min(dt_adv, 2133.0)


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


@pytest.mark.xfail(strict=True, reason="np.<constant> makes the function array work: np.float64 returned (kinds14b)")
@pytest.mark.parametrize("name", ["pi_times", "inf_when_calm", "min_of_limits"])
@pytest.mark.parametrize("x", [4.0, 0.0])
def test_a_numpy_constant_of_python_floats_returns_a_python_float(name, x):
    want, got = globals()[name](x), compiled(name)(x)
    assert first_difference(want, got) is None and type(got) is type(want)
