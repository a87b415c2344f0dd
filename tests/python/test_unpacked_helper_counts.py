"""A helper's Python int unpacked from the tuple it returns and summed in the caller:
`road, passed = step(road, p)`, `flow += passed` (a traffic model's flow count). NumPy's `flow`
is a Python int; the caller's Python-scalar analysis did not know what step returns, so `flow`
came back np.int64 (np2ref.compile; the values equal, `repr` not). A module function's returns
are noted item by item as it is rewritten (rules/pyreturns.note_kinds) and a caller after it
classifies the names it unpacks from them (rules/pyscalars._unpacked_kinds). Compared against
NumPy: values and each result's type.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref


def step(road, p):
    new = np.zeros(road.size)
    passed = 0
    for i in range(road.size):
        if road[i] > p:
            passed += 1
        new[i] = road[i] * 0.5
    return new, passed


def simulate(road, p, nsteps):
    flow = 0
    for _ in range(nsteps):
        road, passed = step(road, p)
        flow += passed
    return road, flow


def rates(road, p):
    new, a = step(road, p)
    new, b = step(new, p)
    total = a + b
    return new, total, total / 2


@pytest.mark.parametrize("fn, args", [(simulate, (0.1, 3)), (rates, (0.2,))], ids=["loop", "straight"])
def test_a_helpers_count_summed_by_its_caller_is_a_python_int(fn, args):
    road = np.linspace(0.0, 1.0, 8)
    want = fn(road, *args)
    got = np2ref.compile(fn)(road, *args)
    assert [type(v) for v in got] == [type(v) for v in want]
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]
