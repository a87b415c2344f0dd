"""Scalar math inside a compiled function (issue 19): max/min of two traced
scalar names, the rest of the math module on traced floats (floor/ceil/trunc as int64, pow,
fmod, hypot, isnan...), lambdas and defs defined in a loop body, and NumPy's warnings for the
mean of an empty masked read. Differential: the original function against np2ref.compile of it."""

import functools
import math
import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program
from np2ref.diagnostics import Np2RefError

P = program("scalar_math")


@functools.cache
def _math_errors():
    """One translation of P.math_errors for every case (each `which` a static argument: its own
    compile once, shared by the cases that raise and the one that runs)."""
    return np2ref.compile(P.math_errors)


def _line(fn_name: str, text: str) -> int:
    lines = open(P.__file__).read().splitlines()
    start = next(i for i, t in enumerate(lines) if t.startswith(f"def {fn_name}("))
    return next(i for i, t in enumerate(lines[start:], start) if text in t) + 1


def test_max_min_of_two_traced_names_keep_pythons_ties_and_nans():
    f = np2ref.compile(P.running_extremes)
    for x in ([1.0, np.nan, 3.0, -0.0], [0.0, -0.0, 2.0, 5.0], [np.nan, 1.0, 0.0, 2.0], [-0.0, 0.0, 0.0, -1.0]):
        x = np.array(x)
        expected, got = assert_same_as_numpy(P.running_extremes, f, x)
        for e, g in zip(expected, got):  # the same element: the sign of a zero, NaN where Python keeps it
            assert np.signbit(e) == np.signbit(g) and np.isnan(e) == np.isnan(g)


def test_floor_ceil_trunc_of_traced_floats_are_int64_ints():
    f = np2ref.compile(P.math_rounding)
    x = np.array([1.0, 2.6, 3.0])
    for T in (-2.5, 2.5, -0.0, 7.0, -7.999):
        expected, got = assert_same_as_numpy(P.math_rounding, f, x, T)
        np.testing.assert_array_equal(got[0], expected[0])


def test_two_argument_math_functions_on_traced_floats():
    f = np2ref.compile(P.math_two_args)
    x = np.array([1.0, -2.0])
    for T, U in ((2.0, 3.0), (-7.5, 2.0), (0.5, -math.inf), (-1.0, math.inf), (math.nan, 0.0), (1.0, math.nan),
                 (-8.0, 3.0), (5.0, math.inf), (-0.0, 2.5)):
        expected, got = assert_same_as_numpy(P.math_two_args, f, x, T, U)
        # pow, fmod, atan2, copysign bit for bit; hypot is XLA's (within an ulp of libm's)
        np.testing.assert_array_equal(got[[0, 2, 4]], expected[[0, 2, 4]])


def test_isnan_isinf_isfinite_of_array_data():
    f = np2ref.compile(P.math_tests)
    assert_same_as_numpy(P.math_tests, f, np.array([1.0, np.nan, np.inf, -np.inf, -0.0]))


@pytest.mark.parametrize("T,U,which,kind,message", [
    (0.0, -1.0, 0, ValueError, "math domain error"), (-2.0, 0.5, 0, ValueError, "math domain error"),
    (10.0, 400.0, 0, OverflowError, "math range error"), (1.0, 0.0, 1, ValueError, "math domain error"),
    (math.inf, 2.0, 1, ValueError, "math domain error"),
    (math.nan, 1.0, 2, ValueError, "cannot convert float NaN to integer"),
    (1.0, -math.inf, 2, OverflowError, "cannot convert float infinity to integer")])
def test_math_errors_are_pythons_when_the_compiled_call_runs(T, U, which, kind, message):
    f = _math_errors()
    for call in (P.math_errors, f):
        with pytest.raises(kind, match=f"^{message}$"):
            call(np.zeros(2), T, U, which)
    assert_same_as_numpy(P.math_errors, f, np.zeros(2), 3.0, 2.0, which)


def test_floor_beyond_int64_is_refused_when_it_runs():
    f = _math_errors()
    with pytest.raises(Exception, match="NPR031") as info:
        f(np.zeros(2), 1e19, 1.0, 2)
    assert "int64" in str(info.value)


def test_lambdas_and_defs_in_a_loop_body_are_lifted():
    for fn, args in ((P.lambda_in_loop, (np.arange(3.0), 3)),
                     (P.lambda_in_loop_rebound_after, (np.arange(3.0), 4)),
                     (P.def_in_loop_writes_capture, (np.arange(4.0), 4))):
        assert_same_as_numpy(fn, np2ref.compile(fn), *args)


@pytest.mark.parametrize("name,text,words", [
    ("lambda_called_after_loop", "f = lambda", "defined in a loop body and called outside it"),
    ("lambda_called_before_def", "f = lambda", "called outside it or before its definition"),
    ("lambda_in_branch", "f = lambda", "lambda `f` is defined inside a branch"),
])
def test_lambdas_in_loops_np2ref_cannot_lift_are_refused_saying_why(name, text, words):
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(getattr(P, name))
    diag = next(d for d in info.value.diagnostics if d.code == "NPR014")
    assert words in diag.message
    assert diag.line == _line(name, text)


def test_mean_of_an_empty_masked_read_warns_as_numpy_does():
    f = np2ref.compile(P.empty_masked_mean)
    x = np.arange(4.0)
    for t in (5.0, 1.0):
        with warnings.catch_warnings(record=True) as numpy_said:
            warnings.simplefilter("always")
            expected = P.empty_masked_mean(x, t)
        with warnings.catch_warnings(record=True) as we_said:
            warnings.simplefilter("always")
            got = f(x, t)
        np.testing.assert_array_equal(got, expected)
        assert [(w.category, str(w.message)) for w in we_said] == \
            [(w.category, str(w.message)) for w in numpy_said]
        assert bool(numpy_said) == (t == 5.0)
