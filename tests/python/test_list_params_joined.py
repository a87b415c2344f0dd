"""A list argument joined with a list argument (`ks + ks`, `p + q`): Python joins the lists, where
np2ref made each list an array and added them (`b[...] = max(ks + ks)` of `ks = [2]` stored 4 for
NumPy's 2: fuzz12's items_list family, tests/regressions/fuzz_2d767bb5ae.py). Such a parameter is
now kept a list when a list is passed (rules/sequences.py list_params); arrays passed add as
before. Compared against NumPy: values, types, the arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from np2ref.compare import first_difference


def doubled_max(b, ks):
    b[...] = max(ks + ks)
    return b.sum()


def joined(b, p, q):
    b[0] = len(p + q)
    return b, p + q


CASES = [(doubled_max, lambda: (np.zeros(3), [2])), (doubled_max, lambda: (np.zeros(3), np.array([2.0, -1.0]))),
         (joined, lambda: (np.zeros(2), [1, 2], [3])), (joined, lambda: (np.zeros(2), np.ones(2), np.arange(2.0)))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_list_arguments_joined_as_python_joins_them(fn, args):
    compiled = np2ref.compile(fn, host_below=0)
    for _ in range(2):  # the first call and the planned one after it
        want_args, got_args = args(), args()
        want, got = fn(*want_args), compiled(*got_args)
        assert first_difference(want, got) is None
        assert np.array_equal(np.asarray(want[0] if isinstance(want, tuple) else want),
                              np.asarray(got[0] if isinstance(got, tuple) else got))  # (main's compare: values)
        for w, g in zip(want_args, got_args):
            assert first_difference(w, g) is None
