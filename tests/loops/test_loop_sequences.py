"""zip/enumerate arguments are evaluated once, before the loop, as Python does (a copy or an
expression was evaluated again each iteration, seeing the loop's own writes: a wrong result),
and `reversed(range(...))` among them is a range (it has no len()). Found by np2ref fuzz.
`for j` loops one after another inside an outer loop do not carry j (FDTD-2D: it was read
before any lax loop bound it, UnboundLocalError)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("loop_sequences")
A = np.array([0.5, -1.0, 2.0, 3.0, 1.5])
CASES = {
    "enumerate_copy": [(A,)],
    "enumerate_expr": [(A,)],
    "zip_reversed": [(A, np.arange(6.0))],
    "zip_reversed_expr": [(A, 4), (A, 1)],
    "fdtd": [tuple(np.arange(20.0).reshape(4, 5) * k for k in (1, -0.5, 0.25)) + (np.arange(3.0),)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sequences_are_evaluated_once_and_the_loop_is_a_lax_loop(name):
    fn = getattr(P, name)
    compiled = np2ref.compile(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        for args in CASES[name]:
            assert_same_as_numpy(fn, compiled, *args)


def test_a_loop_variable_read_after_the_loops_keeps_its_last_value():
    a = np.arange(12.0).reshape(3, 4)
    assert_same_as_numpy(P.last_j, np2ref.compile(P.last_j), a)
    assert_same_as_numpy(P.last_j, np2ref.compile(P.last_j), np.zeros((2, 0)))
