"""The math module on traced floats inside a compiled function (issue 19): math functions of a
traced float are Python floats, math on array data in a loop, and Python's math errors raised
when the compiled call runs; the math table and the runtime agree. Differential: the original
function against np2ref.compile of it (tests/programs/extremes_and_math.py)."""

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("extremes_and_math")


@functools.cache
def _math_errors():
    """One translation of P.math_errors for every case (each `which` a static argument: its own
    compile once, shared by the cases that raise and the one that runs)."""
    return np2ref.compile(P.math_errors)


def test_math_functions_on_a_traced_float_are_python_floats():
    f = np2ref.compile(P.math_on_floats)
    for T in (0.3, 2.0, 7.5):
        expected, got = assert_same_as_numpy(P.math_on_floats, f, np.linspace(0, 1, 4), T)
        assert float(got[1]) == expected[1]  # sqrt: correctly rounded on both sides
        np.testing.assert_allclose(got[2], expected[2], rtol=1e-15)
    x32 = np.linspace(0, 1, 4, dtype=np.float32)  # a Python float is weak: float32 stays float32
    expected, got = assert_same_as_numpy(P.math_on_floats, f, x32, 2.0)
    assert got[0].dtype == expected[0].dtype == np.float32


def test_math_on_array_data_in_a_loop():
    f = np2ref.compile(P.math_in_a_loop)
    assert_same_as_numpy(P.math_in_a_loop, f, np.array([4.0, 2.0, 9.0, 0.5]), 4)
    with pytest.raises(ValueError, match="^math domain error$"):
        P.math_in_a_loop(np.array([4.0, -2.0, 9.0]), 3)
    with pytest.raises(ValueError, match="^math domain error$"):
        f(np.array([4.0, -2.0, 9.0]), 3)


@pytest.mark.parametrize("which,T,kind,message", [
    (0, 0.5, ValueError, "math domain error"), (1, 0.0, ValueError, "math domain error"),
    (1, -1.0, ValueError, "math domain error"), (2, 1000.0, OverflowError, "math range error"),
    (3, 1.5, ValueError, "math domain error")])
def test_math_raises_pythons_errors_when_the_compiled_call_runs(which, T, kind, message):
    f = _math_errors()
    x = np.ones(2)
    for call in (P.math_errors, f):
        with pytest.raises(kind, match=f"^{message}$"):
            call(x, T, which)
    fine = {0: 5.0, 1: 3.0, 2: 700.0, 3: 0.5}[which]
    assert_same_as_numpy(P.math_errors, f, x, fine, which)


def test_the_math_table_and_the_runtime_agree():
    from np2ref.analysis.library_table import MATH_FUNCS
    from np2ref.rt.pymath import NPR_MATH_NAMES
    assert MATH_FUNCS == NPR_MATH_NAMES
