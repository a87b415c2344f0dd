"""A local bound to a module-level number constant and then `op=`'d under a condition on data:
`a = A0; if power > 0: a *= F_A else: a = A0` (FIRE's mixing parameter, tests/third_party/
scripts12/fire_spring_network.py). The alias analysis took `a` for a possible array sharing the
module name's buffer (a name `op=` would write in place), made it a Ref (`npr_own(A0)`), and the
traced branch that rebinds it was refused at run time (NPR011); `a = 0.1` translated. A
module-level name bound once to a number literal and never changed holds a Python number, which
no `op=` writes (analysis/numbers.py). Compared against NumPy: results, their types, the
arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy

A0, F_A = 0.1, 0.99
DT0 = 0.02
N_MIN = 3
SHIFTED = -1.5


def mixing(x):
    a = A0
    dt, downhill = DT0, 0
    for it in range(x.shape[0]):
        if x[it] > 0:
            downhill += 1
            if downhill > N_MIN:
                a *= F_A
                dt = min(dt * 1.1, 0.1)
        else:
            a = A0
            dt *= 0.5
            downhill = 0
    return a, dt, downhill


def branch_once(x):
    s = SHIFTED
    if x[0] > 0:
        s += 1.0
    return s


def shadowed(x, A0):
    a = A0  # the parameter, which may be an array the caller sees written
    a *= 2.0
    return a


@pytest.mark.parametrize("fn, args", [
    (mixing, lambda: (np.array([1.0, 2.0, 0.5, 3.0, 1.0, -1.0, 2.0]),)),
    (mixing, lambda: (np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),)),
    (branch_once, lambda: (np.array([1.0, -1.0]),)),
    (shadowed, lambda: (np.array([1.0]), np.array([3.0, 4.0]))),
])
def test_a_module_number_constant_op_assigned_under_a_data_condition(fn, args):
    assert_returns_as_numpy(fn, args)
