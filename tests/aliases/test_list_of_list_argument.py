"""`list(st)` of a list argument (tests/regressions/fuzz_2daa85f8ab.py): Python's new list holds
st's items themselves, so a 0-d array item comes back the caller's 0-d array and a Python float a
Python float. np2ref passed a list of same-shape items as one array, whose rows came back
np.float64. A parameter given to the builtin `list()` now reaches the function as a list (npr_jit's
`lists=`, rewrite/rules/sequences.list_params), its items the caller's where returned as they are
(rt/arguments._NprListArg). A list argument's other uses (np.sum, np.stack, an index) are as before."""

import numpy as np
import pytest

from tests.conftest import assert_returns_as_numpy


def listed(a, st):
    x0 = list(st)
    return x0, a


def listed_then_used(a, st):
    x0 = list(st)
    return x0[0] + a, np.sum(st), len(x0)


def one_item_and_stacked(st):
    out = list(st)
    return out[1], np.stack(st)


def appended_to(st, a):
    items = list(st)
    items.append(a)
    return items


def doubled_rows(a):
    return [x * 2 for x in list(a)]


CASES = {
    "zero_d_items": (listed, lambda: (np.arange(3.0), [np.array(1.0), np.array(0.5)])),
    "python_floats": (listed, lambda: (np.arange(3.0), [1.0, 0.5])),
    "numpy_scalars": (listed, lambda: (np.arange(3.0), [np.float64(1.0), np.float64(0.5)])),
    "rows": (listed, lambda: (np.arange(3.0), [np.ones(2), np.zeros(2)])),
    "used": (listed_then_used, lambda: (np.arange(3.0), [np.array(1.0), np.array(0.5)])),
    "used_floats": (listed_then_used, lambda: (np.arange(3.0), [1.0, 0.5])),
    "item_and_stacked": (one_item_and_stacked, lambda: ([np.array(1.0), np.array(2.0)],)),
    "appended": (appended_to, lambda: ([np.array(1.0)], np.array(3.0))),
    "array_rows": (doubled_rows, lambda: (np.arange(3.0),)),
}


@pytest.mark.parametrize("case", CASES)
def test_list_of_a_list_argument_as_numpy(case):
    fn, args = CASES[case]
    assert_returns_as_numpy(fn, args)
