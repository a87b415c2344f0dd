"""`hist.append(v)` then `hist[-1]` in the same loop body reads the value appended: the loop stacks
its appends as a lax loop (NPR033 on main: a Python loop). Differential against NumPy: results,
the mutated argument, dtypes, scalar types and what is printed."""

import contextlib
import io
import warnings

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks, assert_same_printed, program

checks = ProgramChecks("last_appended")


def _same_printing(name, *args):
    with contextlib.redirect_stdout(io.StringIO()) as want:
        getattr(program("last_appended"), name)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with contextlib.redirect_stdout(io.StringIO()) as both:  # (same() runs NumPy's, then the translation)
        checks.same(name, *args)
    want = want.getvalue()
    assert want and both.getvalue().startswith(want)
    return want, both.getvalue()[len(want):]


def test_a_printed_history():
    want, got = _same_printing("printed_history", np.linspace(0.0, 1.0, 9) ** 2, 12)
    assert_same_printed(got, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_scalars_read_back_under_an_if_and_in_arithmetic(dtype):
    want, got = _same_printing("scalar_history", np.linspace(0.0, 1.0, 7).astype(dtype), 9, 3)
    assert_same_printed(got, want)


def test_another_use_of_the_list_between_is_left_alone():
    want, got = _same_printing("counted_last", np.arange(4), 5)
    assert_same_printed(got, want)


def test_the_loops_are_lax_loops():
    source = open(program("last_appended").__file__).read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = np2ref.convert_source(source, "last_appended.py")
    python_loops = sorted(d.line for d in result.diagnostics if d.code == "NPR033")
    assert python_loops == [33]  # counted_last's loop only
