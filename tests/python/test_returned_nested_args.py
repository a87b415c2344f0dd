"""An array argument the function writes, returned inside a nested tuple, list or dict
(`return (z, (x, y, r))`): NumPy returns the caller's own array there, which later writes show
through. The return rule marked only a tuple's top-level items a reference (rules/views.py
plan_return), so a nested one was loaded, a new array (fuzz12's while_history family,
tests/regressions/fuzz_9c80cf9b0f.py). Compared against NumPy: the values (compare.first_difference)
and which returned objects are the caller's own."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from np2ref.compare import first_difference
from tests.conftest import signless_on_tpu


def nested_tuple(x, r):
    r[...] = x[:2] * 0.5
    return (x * 2, (x, r))


def out_argument(x, A, r):
    np.multiply(np.arange(2) * 0.5, A[2, :], out=r)
    return (x.sum(), (x, r))


def in_a_list(x, r):
    r[0] = -0.0
    return (x, [r, x])


def in_a_dict(x, r):
    r += 1.0
    return {"x": x, "parts": (r,)}


def _args():
    return (np.array([1.0, -2.0, 0.5]), np.array([[1.25, -1.25], [-2.0, 3.0], [-1.25, -1.75]]), np.zeros(2))


def _leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    return [value]


@pytest.mark.parametrize("fn", [nested_tuple, out_argument, in_a_list, in_a_dict], ids=lambda f: f.__name__)
def test_a_written_argument_returned_nested_is_the_callers(fn):
    compiled = np2ref.compile(fn, host_below=0)
    names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    for _ in range(2):  # the first call and the planned one after it
        want_args = [a.copy() for a, n in zip(_args(), "xAr") if n in names]
        got_args = [a.copy() for a, n in zip(_args(), "xAr") if n in names]
        want, got = fn(*want_args), compiled(*got_args)
        assert first_difference(signless_on_tpu(want), got) is None
        assert [any(leaf is a for a in want_args) for leaf in _leaves(want)] == \
            [any(leaf is a for a in got_args) for leaf in _leaves(got)]
        for w, g in zip(want_args, got_args):
            assert first_difference(w, g) is None
