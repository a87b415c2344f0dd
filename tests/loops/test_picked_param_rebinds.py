"""A name bound to a parameter and `op=`'d (`tau = tau0`, `tau *= 0.5`: it counts as a written
array, since `op=` would write an array argument in place), rebound by `min()`/`max()` in an `if`
on array data: tau-leaping's `tau = min(tau * 1.2, tau0)` after the `continue` that rejects a
leap (the statements after a `continue` run under an `if` on its flag), or straight under an
`if`. The branch was kept a Python `if`, and its traced condition was refused NPR030, though
the same binding outside a branch translates. A branch now carries the pick as it carries
arithmetic (npr_own(..., scalar=True), rules/control.scalar_rebinds(picks=True)); an array
argument there stays refused (NPR030 for a one-element array, NPR011 for a 0-d one).
Found by tests/third_party/scripts10/tau_leaping_network.py. Compared against NumPy: results,
their types, the arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy


def rejected_leaps(x, tau0):
    t = 0.0
    n = 0
    tau = tau0
    while t < 1.0 and n < 50:
        if (x * tau).sum() > 3:
            tau *= 0.5
            continue
        t += tau
        n += 1
        tau = min(tau * 1.2, tau0)
    return t, n, tau


def clipped_growth(x, tau0):
    t = 0.0
    tau = tau0
    for _ in range(20):
        tau *= 0.9
        if (x * tau).sum() > 3:
            tau = min(tau * 1.2, tau0)
        t += tau
    return t, tau


def floored_in_else(x, tau0):
    t = 0.0
    tau = tau0
    k = 0
    while k < 20:
        if (x * tau).sum() > 3:
            tau = tau * 0.5
        else:
            tau = max(tau, 0.25 * tau0)
        t = t + tau
        k += 1
    return t, tau


def picked_in_else(x, a):
    t = 0.0
    if x[0] > 0:
        b = 1.0
    else:
        b = max(a, 0.5)
    t += b
    return t


@pytest.mark.parametrize("fn", [rejected_leaps, clipped_growth], ids=lambda f: f.__name__)
@pytest.mark.parametrize("tau0", [0.5, 0.01, np.float64(0.5), np.float32(0.5)], ids=repr)
def test_a_pick_rebinding_a_parameters_name_in_a_branch(fn, tau0):
    assert_returns_as_numpy(fn, lambda: (np.array([3.0, 5.0]), tau0))


# A max()/min() picked in an `else` branch and read by arithmetic after the `if`: main crashed
# (a raw TypeError 'IndentedBlock' object is not iterable, analysis/pick_uses.py _bound_before
# walking up from an `else:` block); fixed by dtype10's pick_uses.
@pytest.mark.parametrize("fn, args", [(floored_in_else, (np.array([3.0, 5.0]), 0.5)),
                                      (picked_in_else, (np.array([-1.0]), 0.25))],
                         ids=["floored_in_else", "picked_in_else"])
def test_a_pick_in_an_else_read_after_the_if(fn, args):
    assert_returns_as_numpy(fn, lambda: args)


@pytest.mark.parametrize("tau0", [np.array([0.5]), np.array(0.5)], ids=["one-element", "0-d"])
def test_an_array_picked_there_stays_refused(tau0):
    with pytest.raises(np2ref.Np2RefError):
        np2ref.compile(rejected_leaps, host_below=0)(np.array([3.0, 5.0]), tau0)
