"""A helper whose tuple parameter a loop rebinds, returned after the loop (`for _ in range(n): st =
body(st)`; `npr_fuzzlib.apply_n(h, n, (x, 0))` of the fuzzer's `imported` family), called from host
code: where the loop runs no trip NumPy returns the caller's tuple, whose array item is the caller's
own array, which the host code then writes. The compiled helper returned a new array (the leaf was
matched against whole arguments only), so the writes missed the caller's array (fuzz13's try_loop
programs, seed 2; rt/jit.py now notes an array item of a tuple argument returned as it is, and
result_shape.py gives back that item). Against NumPy through convert."""

import numpy as np
import pytest

import np2ref
from converting import agree, convert_both

SOURCE = """
import time
import numpy as np


def settle(st, n):
    for k in range(n):
        x, i = st
        st = (x * 0.5 + 1.0, i + 1)
    return st


def run(x, n):
    t = time.perf_counter()
    y, i = settle((x, 0), n)
    y[...] += 1.0
    return x
"""


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    return convert_both(SOURCE, tmp_path_factory.mktemp("tuple_state"), "tuple_state")


@pytest.mark.parametrize("n", [0, 2])
def test_a_tuple_state_passed_through_no_trip_is_the_callers(both, n):
    converted, original, lifted = both
    agree(original, lifted, "run", np.array([0.5, 1.75, -0.25]), n)


def test_the_compiled_helper_returns_the_callers_array_item(both):
    x = np.array([0.5, 1.75, -0.25])
    got = np2ref.compile(both[1].settle)((x, 0), 0)
    assert got[0] is x and got[1] == 0 and type(got[1]) is int
