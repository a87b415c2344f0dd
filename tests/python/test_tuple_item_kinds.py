"""Items of a local tuple read by position: `v = (dt, 0.0)`, then `v = (v[0] + v[1], v[1])`
(fuzz_393a7f9e93). The classifier did not read `v[0]`, so the item came back np.float64 where
NumPy's is the Python float dt makes it; `v[1]` also became `npr_get(v)[1]`. Now a tuple display
name's items are classified position by position (rules/pytuples.py): Python's type returned, Python's
operators between them (`v[0] / v[1]`: ZeroDivisionError), NumPy's where an item is NumPy's scalar.
Differential: results and their types against NumPy, compiled and converted."""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest

import np2ref
from conftest import converted_functions
from np2ref.verify.compare import first_difference


def rebuilt(i64, dt):  # no array work (fuzz_393a7f9e93)
    v = (dt, 0.0)
    v = (v[0] + v[1], v[1])
    return v


def rebuilt_beside_arrays(u, dt):
    u *= 2.0
    v = (dt, 1.5)
    v = (v[0] * v[-1], v[1])
    return v[0] * 2, v


def element_items(x, dt):
    v = (x[0], dt)
    w = (v[0] * 2.0, v[1] * 2.0)
    return w[0], w[1], w


def divided(x, dt):
    x += 1.0
    v = (float(x[0]), dt - dt)
    return v[0] / v[1]


CASES = [("rebuilt", lambda: (np.array([1]), 0.25)), ("rebuilt", lambda: (np.array([1]), np.float64(0.25))),
         ("rebuilt", lambda: (np.array([1]), 3)),
         ("rebuilt_beside_arrays", lambda: (np.arange(3.0), 0.5)),
         ("rebuilt_beside_arrays", lambda: (np.arange(3.0), np.float64(0.5))),
         ("element_items", lambda: (np.arange(1.0, 4.0), 0.5)),
         ("element_items", lambda: (np.arange(1.0, 4.0), np.float32(0.5))),
         ("divided", lambda: (np.arange(3.0), 0.5)), ("divided", lambda: (np.arange(3.0), np.float64(0.5)))]
NAMES = sorted({n for n, _ in CASES})


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    return converted_functions(sys.modules[__name__], NAMES, tmp_path_factory.mktemp("tuple_items"), "tuples")


@functools.cache
def _compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


def _outcome(fn, args):
    """The result and the arguments after the call; Python's error and message where it raises (the
    arguments then as they are: np2ref raises before it writes anything back)."""
    try:
        return fn(*args), args
    except ZeroDivisionError as e:
        return ("ZeroDivisionError", str(e)), ()


@pytest.mark.parametrize("name, make", CASES, ids=[n for n, _ in CASES])
def test_a_tuple_items_kind_is_numpys(converted, name, make):
    for translated in (_compiled(name), getattr(converted, name)):
        (want, a0), (got, a1) = _outcome(globals()[name], make()), _outcome(translated, make())
        assert first_difference(want, got, "result") is None
        for i, (x, y) in enumerate(zip(a0, a1)):
            assert first_difference(x, y, f"argument {i}") is None
