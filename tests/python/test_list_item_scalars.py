"""A list of Python floats or ints passed for a parameter read item by item (`for k in ks`,
`ks[0]`, `a, b = ks`) hands NumPy's program Python numbers, weakly typed in promotion:
`x32 * ks[0]` is float32 and `repr(k)` prints `0.5`. npr_jit made every list argument one
float64/int64 array, so each item was a strongly typed float64 scalar: `x32 * k` came back
float64 and a printed coupling read `np.float64(0.5)` (scripts7's `kuramoto_sync`). A
parameter used as an array anywhere (`np.sum(ks)`, `x * ks`) stays NumPy's strongly typed
array (rewrite/rules/list_items.py, rt/calls.py, NprFunction._run_traced).
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import np2ref
from conftest import result_types


def scaled_sum(x, ks):
    acc = np.zeros(x.shape, x.dtype)
    for k in ks:
        acc += x * k
        print("k", repr(k), (x * k).dtype)
    return acc, x * ks[0], len(ks)


def unpacked(x, ks):
    a, b = ks
    return x * a - b


def shifted(h, ks):
    last = h
    for i, k in enumerate(ks):
        last = h + k * i
    return last, h - ks[-1]


def whole_list(x, ks):  # an array-wide use: NumPy makes a float64 array of the list
    return x * np.asarray(ks)[0], np.sum(ks)


X32 = np.linspace(0.5, 1.5, 4, dtype=np.float32)
H8 = np.arange(4, dtype=np.int8)

CASES = [(scaled_sum, (X32, [0.5, 2.0])), (unpacked, (X32, [0.25, 3.0])), (shifted, (H8, [1, 2, 3])),
         (whole_list, (X32, [0.5, 2.0])), (scaled_sum, (X32, np.array([0.5, 2.0])))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_list_items_promote_as_python_numbers(fn, args):
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        want = fn(*args)
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        got = np2ref.compile(fn, host_below=0)(*args)
    assert result_types(got) == result_types(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert printed.getvalue() == shown.getvalue()


def test_a_list_call_and_an_array_call_are_two_programs():
    compiled = np2ref.compile(scaled_sum, host_below=0)
    with contextlib.redirect_stdout(io.StringIO()):
        listed = compiled(X32, [0.5, 2.0])
        arrayed = compiled(X32, np.array([0.5, 2.0]))
    assert listed[1].dtype == np.float32 and arrayed[1].dtype == np.float64


def test_pure_under_jit_takes_the_items_as_python_numbers():
    import jax

    compiled = np2ref.compile(scaled_sum, host_below=0)
    with jax.enable_x64(True), contextlib.redirect_stdout(io.StringIO()):
        (acc, first, n), _ = jax.jit(compiled.pure)(X32, [0.5, 2.0])
    assert first.dtype == np.float32 and acc.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(first), X32 * 0.5)


def picked(b, ks):
    b[0] = 1.0
    return max(ks), type(min(ks)).__name__, sum(ks), b * max(ks)


@pytest.mark.parametrize("ks", [[2, 3], [1], [2.5, 1.5], [np.int32(3), np.int32(1)]])
def test_max_min_sum_of_a_list_of_numbers_passed_in_are_pythons(ks):
    """`max(ks)`, `min(ks)`, `sum(ks)` of a list argument of Python ints came back np.int64 (the list
    taken for one int64 array; fuzz_1212f1a002.py, fuzz_7420b7aa33.py): now item reads, the list
    passed weakly typed; NumPy's scalars in the list stay NumPy's."""
    b0, b1 = np.zeros(2, np.float32), np.zeros(2, np.float32)
    want, got = picked(b0, list(ks)), np2ref.compile(picked, host_below=0)(b1, list(ks))
    assert result_types(got) == result_types(want)
    assert got[:3] == want[:3] and got[3].dtype == want[3].dtype
    np.testing.assert_array_equal(got[3], want[3])
    np.testing.assert_array_equal(b1, b0)


def test_max_of_a_list_of_ints_and_floats_is_refused():
    """Python's max of [0.5, 2] is the int 2, of [2.5, 1] the float 2.5: the one array of the list
    cannot tell, so refused (NPR128) where it was np.float64."""
    with pytest.raises(np2ref.Np2RefError, match="NPR128"):
        np2ref.compile(picked, host_below=0)(np.zeros(2, np.float32), [0.5, 2])
