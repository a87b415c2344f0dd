"""Wrong answers and raw errors found by probing kernels in the style of third-party linear-algebra
and stencil benchmarks (tests/programs/linalg_stencils.py), each against NumPy."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("linalg_stencils")


def _same(name, *args):
    fn = getattr(P, name)
    return assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_carried_python_float_that_takes_another_carried_name_s_numpy_float(dtype):
    img = np.random.default_rng(0).random((3, 5)).astype(dtype)
    _same("iir_backward", np.float64(0.3), np.float64(-0.2), img)
    _same("three_tap_history", img[0].copy())


def test_a_delay_line_of_python_floats_on_float32_data_peels_each_trip_it_holds_one():
    """`c = b; b = a; a = x[i]` from Python floats 0.1 (three_tap_scaled): c holds the Python float for
    three trips, where NumPy computes `0.11 * c * 3.0` in float64 before it meets float32. Refused NPR128
    before (a pass of the loop's typing, branches._npr_settle, saw c in float64 for one pass); now each
    trip that holds a Python float in a float32 carry runs on its own (loops._NprPeelFirst), then one
    lax loop."""
    for n in (1, 2, 3, 4, 6):
        _same("three_tap_scaled", (np.random.default_rng(n).random(n) + 0.5).astype(np.float32))


def test_a_carried_python_float_rounds_only_when_numpy_meets_the_data():
    x = np.array([1e-3, 2e-3, 0.5], np.float32)
    expected, got = _same("scaled_accumulate", x)
    assert got == expected and type(got) is np.float32  # bit for bit: the tolerance hides one ulp
    _same("scaled_accumulate", x.astype(np.float64))


def _same_as_lax_loops(name, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)  # no loop traced one by one
        _same(name, *args)


def test_max_of_slices_whose_bounds_are_both_loop_variables():
    _same_as_lax_loops("pair_table", np.random.default_rng(1).integers(0, 4, 12).astype(np.int32))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_sum_max_min_of_slices_of_run_time_length(dtype):
    _same_as_lax_loops("prefix_reductions", np.array([3, -1, 4, 1, -5, 9, 2], dtype))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_reversed_slices_of_run_time_length(dtype):
    rng = np.random.default_rng(2)
    _same_as_lax_loops("levinson", (rng.random(12) * 0.1).astype(dtype))
    _same_as_lax_loops("reversed_windows", rng.random(11).astype(dtype), rng.random((7, 4)).astype(dtype))
