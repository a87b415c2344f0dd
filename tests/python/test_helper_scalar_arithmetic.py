"""A helper that returns one Python number (`return int(ok.sum())`, `return float(x.mean())`,
not a tuple), used in arithmetic by its caller: `accepted += sweep(...)` then
`accepted / (n * size)` (a Potts model's acceptance rate), `total_new += day(...)` (an
agent-based SIR's count), `total += relocate(...)` (Schelling's moves). NumPy's result is a
Python int or float; np2ref.compile returns np.int64 / np.float64 (values equal, `repr` not:
the converted script prints `np.float64(0.81...)` where NumPy prints `0.81...`). Returned as it
is (`return count(x)`, `n = count(x); return n`) the helper's noted number stays Python's; the
caller's Python-scalar analysis does not know what a helper returns unless it unpacks a tuple
(rules/pyreturns.note_kinds notes tuple displays only; rules/pyscalars._unpacked_kinds).
Found by tests/third_party/scripts10 (potts_checkerboard, agent_sir_moving,
schelling_segregation). A helper's number bound to a name (`n = count(x); n / x.size`) keeps
its kind since pyfn10; used inline (`count(x) * 2`) or added into an accumulator, strict xfails.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy


def count(x):
    return int((x > 0.5).sum())


def mean_of(x):
    return float(x.mean())


def returned(x):
    return count(x)


def bound(x):
    n = count(x)
    return n


def summed(x):
    total = 0
    for _ in range(3):
        total += count(x)
    return total


def divided(x):
    n = count(x)
    return n / x.size


def scaled(x):
    r = mean_of(x) * 2
    return r


_OPEN = "a helper's one returned Python number loses its kind in the caller's arithmetic (np.int64/np.float64)"


@pytest.mark.parametrize("fn", [
    returned, bound,
    pytest.param(summed, marks=pytest.mark.xfail(reason=_OPEN, strict=True)),
    divided,  # (`n = count(x)`: pyfn10's rules/pyscalars, a helper whose every return is a Python int)
    pytest.param(scaled, marks=pytest.mark.xfail(reason=_OPEN, strict=True)),
], ids=lambda f: f.__name__)
def test_a_helpers_python_number_keeps_its_type_in_the_caller(fn):
    assert_returns_as_numpy(fn, lambda: (np.linspace(0.0, 1.0, 10),))
