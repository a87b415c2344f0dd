"""Early returns nested under `if`s on array data, a Python number on some paths and NumPy's scalar
on others (garch_nelder_mead's `if a < 0: return np.inf`, `if a + b >= 1: return np.inf`, `return
np.sum(...)`): the inner `if`'s result is a Python float or np.float64 as its own data picks, and the
outer `if` marked its result by its own predicate only, so the second early return came back
np.float64(inf) where NumPy's is the Python float inf. Each branch now gives, per returned leaf, a
flag of whether it is a Python number (rt/early_exit._npr_if_returning), the outer result noted with
the flag of the path the data took. Differential: result types and values against NumPy, compiled
and converted."""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest

import np2ref
from conftest import converted_functions
from np2ref.verify.compare import first_difference


def two_early(x):
    if x[0] < 0.0:
        return 2.5
    if x[1] < 0.0:
        return 1.5
    return x[0] * 2.0


def three_early(x):
    if x[0] < 0.0:
        return np.inf
    if x[1] < 0.0:
        return x[1]
    if x[0] + x[1] >= 1.0:
        return np.inf
    return np.sum(x)


def numpy_outside(x):
    if x[0] < 0.0:
        return x[0] * 3.0
    if x[1] < 0.0:
        return 0.5
    return x[1] * 2.0


def int_positions(x):
    if x[0] < 0.0:
        return -1
    if x[1] < 0.0:
        return 7
    return np.argmax(x)


def tuple_items(x):
    if x[0] < 0.0:
        return 1.0, 0
    if x[1] < 0.0:
        return x[1], 1
    return x.sum(), np.argmax(x)



def python_on_both(x):  # both Python floats, `np.inf` no note of the return reaches (fuzz_e256e7d81c)
    if x[0] + x[-1] >= 1.0:
        return np.inf
    return 0.25


def through_a_helper(x, dt):
    v = python_on_both(x)
    return v, dt * 2


INPUTS = [[1.0, -2.0, 0.5], [-1.0, 2.0, 0.5], [0.25, 0.5, 3.0], [0.75, 0.5, -3.0], [-1.0, -2.0, 0.0]]
NAMES = ["two_early", "three_early", "numpy_outside", "int_positions", "tuple_items", "python_on_both"]


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    return converted_functions(sys.modules[__name__], NAMES, tmp_path_factory.mktemp("nested_returns"), "nested")


@functools.cache
def _compiled(fn):
    return np2ref.compile(fn, host_below=0)


@pytest.mark.parametrize("name", NAMES)
def test_a_nested_early_return_keeps_the_kind_of_the_path_taken(converted, name):
    fn = globals()[name]
    for translated in (_compiled(fn), getattr(converted, name)):
        for x in INPUTS:
            want, got = fn(np.array(x)), translated(np.array(x))
            assert first_difference(want, got, f"result of {name}({x})") is None


@pytest.mark.parametrize("dt", [0.5, np.float64(0.5)], ids=["float", "float64"])
def test_a_helpers_python_float_on_both_paths_stays_one(dt):
    for x in INPUTS:
        want, got = through_a_helper(np.array(x), dt), _compiled(through_a_helper)(np.array(x), dt)
        assert first_difference(want, got, f"result of through_a_helper({x})") is None
