"""An append under an `if` of the trip whose test reads only the loop index and names the loop
does not bind (`if step % every == 0: snaps.append(u.copy())`, a snapshot every N steps) is
stacked by a lax loop: NumPy's list, row for row (NPR033 on main: a Python loop, one trace a trip,
NPR035 past the unroll limit). Differential against NumPy: results, the mutated arguments,
dtypes, scalar types and the printed text; the loops are lax loops (no NPR033)."""

import contextlib
import io
import warnings

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks, assert_same_printed, program

checks = ProgramChecks("guarded_appends")


def _bump(n):
    u = np.zeros(n)
    u[n // 2] = 1.0
    return u


def test_snapshots_every_n_steps_and_their_prints():
    with contextlib.redirect_stdout(io.StringIO()) as out:
        checks.same("snapshots_every", _bump(16), 12, 4, 0.2)
    text = out.getvalue()
    half = len(text) // 2
    assert text.count("step") == 6 and text[:half] == text[half:]  # NumPy's lines, then the translation's


@pytest.mark.parametrize("nsteps, every", [(7, 3), (6, 3), (1, 5)])
def test_frames_every_n_and_the_last(nsteps, every):
    checks.same("frames_and_last", _bump(9), nsteps, every)


def test_several_lists_some_under_the_if_and_an_else():
    checks.same("times_and_states", np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.1, 10, 3)


def test_a_test_no_trip_takes():
    checks.same("none_taken", np.linspace(1.0, 2.0, 4), 5, 9)


@pytest.mark.parametrize("nsteps", [3, 4])
def test_a_list_no_trip_appends_to_stacked(nsteps):
    """np.array of a list no trip appended to is NumPy's np.array([]), shape (0,) float64, not the
    rows' buffer of shape (0, 2) (fuzz13's sweep, guarded_append seed 1313); np.stack of it raises
    NumPy's ValueError."""
    checks.same("none_taken_stacked", np.array([1.0, 0.25]), nsteps, 3)
    if nsteps == 3:
        with pytest.raises(ValueError):
            checks.compiled("none_taken_stack")(np.array([1.0, 0.25]), nsteps, 3)


def test_long_loops_are_not_unrolled():
    # 3,000 trips: a Python loop would trace 3,000 bodies (the unroll limit refuses it, NPR035)
    expected, got = checks.same("frames_and_last", _bump(9), 3000, 1000)
    assert len(got) == 4  # the start, 1000, 2000, 3000
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        checks.compiled("frames_and_last")(_bump(9), 3000, 1000)
    assert not [w for w in seen if issubclass(w.category, np2ref.PythonLoopWarning)]


def test_lists_rebound_to_their_arrays_after_the_loop():
    # `snaps = np.array(snaps)` after the loop: a list of the function's own all the same (main: a
    # Python loop); the arrays' later uses do not read the list's rows
    with contextlib.redirect_stdout(io.StringIO()) as out:
        checks.same("rebound_to_arrays", _bump(16), 12, 5)
    text = out.getvalue()
    assert text.count("step") == 6
    assert_same_printed(text[len(text) // 2:], text[:len(text) // 2])


def test_asarray_of_a_stacked_history():
    checks.same("asarray_history", np.ones(4), 5)  # main: TypeError (the lazy list's rows)


def test_a_value_no_buffer_holds_keeps_the_python_loop():
    checks.same("labels_every", np.zeros(3), 5, 2)


def test_a_test_of_array_data_is_still_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        checks.same("on_data", np.linspace(1.0, 2.0, 4), 3)
    assert "NPR034" in {d.code for d in info.value.diagnostics} | {getattr(info.value, "code", None)}


def test_the_loops_are_lax_loops():
    source = open(program("guarded_appends").__file__).read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = np2ref.convert_source(source, "guarded_appends.py")
    on_data = source.splitlines().index("def on_data(x, nsteps):") + 1
    # on_data's test reads array data; labels_every's strings are found at run time (a Python loop then)
    assert sorted(d.line for d in result.diagnostics if d.code == "NPR033") == [on_data + 2]
    assert "npr_append(snaps, " in result.code and "when=(lambda step: step % every == 0,)" in result.code
