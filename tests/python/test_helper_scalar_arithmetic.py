"""A helper that returns one Python number (`return int(ok.sum())`, `return float(x.mean())`,
not a tuple), used in arithmetic by its caller: `accepted += sweep(...)` then
`accepted / (n * size)` (a Potts model's acceptance rate), `total_new += day(...)` (an
agent-based SIR's count), `total += relocate(...)` (Schelling's moves). NumPy's result is a
Python int or float; np2ref.compile returns np.int64 / np.float64 (values equal, `repr` not:
the converted script prints `np.float64(0.81...)` where NumPy prints `0.81...`). Returned as it
is (`return count(x)`, `n = count(x); return n`) the helper's noted number stays Python's; the
caller's Python-scalar analysis does not know what a helper returns unless it unpacks a tuple
(rules/pyreturns.note_kinds; rules/pyscalars.callee_kinds).
Found by tests/third_party/scripts10 (potts_checkerboard, agent_sir_moving,
schelling_segregation). A helper's number bound to a name (`n = count(x); n / x.size`) keeps
its kind since pyfn10; used inline (`count(x) * 2`) or added into an accumulator since ret11:
rules/pyscalars.py's classifier takes a call of such a helper for a Python number of its kind
(data), as `_unpacked_kinds` took `n = count(x)`.
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


def total(x):
    return x.sum()  # NumPy's float64: no Python number


def inline_returned(x):
    return count(x) * 2 + 1


def in_tuple(x):
    return (count(x) - 1, mean_of(x) / 4, x)


def in_dict(x):
    return {"n": count(x) + len(x), "m": 1.5 * mean_of(x)}


def in_list(x):
    return [mean_of(x) ** 2, count(x) // 3]


def accumulated_float(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += mean_of(x[i:]) * 0.5
    return s


def twice(x):
    return count(x) + count(x[::2])


def numpy_sum_stays(x):
    return total(x) * 2, total(x) + count(x)


@pytest.mark.parametrize("fn", [
    returned, bound,
    summed,
    divided,  # (`n = count(x)`: pyfn10's rules/pyscalars, a helper whose every return is a Python int)
    scaled,
    inline_returned, in_tuple, in_dict, in_list, accumulated_float, twice, numpy_sum_stays,
], ids=lambda f: f.__name__)
def test_a_helpers_python_number_keeps_its_type_in_the_caller(fn):
    assert_returns_as_numpy(fn, lambda: (np.linspace(0.0, 1.0, 10),))
