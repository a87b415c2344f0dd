"""np.pi, np.e, np.inf, np.nan and np.euler_gamma are Python floats (`type(np.inf) is float`): a
function of Python floats that uses one returns a Python float in NumPy's program (scripts14a's
plume_advection_diffusion `time_step`: `cfl * DX / speed if speed > 0 else np.inf`, then `min`;
kepler_yoshida's `E = M if e < 0.8 else np.pi`). np2ref.compile returned np.float64:
analysis/collect.py counted any name of the numpy module as array work (`uses_numpy`), so the
function was not left to run as written (module._touches_arrays, `plain`), and
rules/param_arithmetic and rules/pyscalars took only `math.` constants for Python numbers. Both
now take numpy's float constants as they take math's (collect.NUMPY_CONSTANTS,
param_arithmetic.float_constant). Compared with compare.first_difference: values and types."""

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


def start_guess(m, e):
    return m if e < 0.8 else np.pi


def scaled_with_array(x, h):
    x[0] = np.e
    return x, np.pi * h, -np.inf * h


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


@pytest.mark.parametrize("name", ["pi_times", "inf_when_calm", "min_of_limits"])
@pytest.mark.parametrize("x", [4.0, 0.0, np.float64(2.0)], ids=["float", "zero", "np.float64"])
def test_a_numpy_constant_of_python_floats_returns_a_python_float(name, x):
    want, got = globals()[name](x), compiled(name)(x)
    assert first_difference(want, got) is None and type(got) is type(want)


@pytest.mark.parametrize("args", [(0.5, 0.3), (0.5, 0.9), (np.float64(0.5), 0.9)])
def test_a_conditional_picking_a_numpy_constant_keeps_its_type(args):
    want, got = start_guess(*args), compiled("start_guess")(*args)
    assert first_difference(want, got) is None and type(got) is type(want)


@pytest.mark.parametrize("h", [0.5, np.float64(0.5)], ids=["float", "np.float64"])
def test_a_numpy_constant_times_a_parameter_beside_array_work_keeps_its_type(h):
    x0, x1 = np.zeros(3), np.zeros(3)
    want, got = scaled_with_array(x0, h), compiled("scaled_with_array")(x1, h)
    assert first_difference(want[1:], got[1:]) is None and [type(v) for v in got[1:]] == [type(v) for v in want[1:]]
    assert first_difference(x0, x1) is None
