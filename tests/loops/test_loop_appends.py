"""Append-only lists of a `for` loop stacked by a lax loop (rt/appends.py, rules/loop_appends.py):
results, written arguments and the types of the list's items against NumPy's; the loop compiled
(no PythonLoopWarning, where main ran it as a Python loop); the appends it cannot stack keep
the Python loop, and those of a written array or a view of one stay refused (NPR207)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks, assert_same_as_numpy, numpys_values, result_types

P = ProgramChecks("loop_appends")


def same_compiled(name, *args):
    """assert_same_as_numpy with the types of every item, the loop run as a lax loop (a
    PythonLoopWarning is an error here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        expected, got = assert_same_as_numpy(getattr(P.module, name), P.compiled(name), *args)
    assert result_types(got) == result_types(expected)
    return expected, got


def test_copies_and_numpy_scalars():
    expected, got = same_compiled("history", np.linspace(0.0, 1.0, 12), 5)
    hist = got[0]
    assert all(h.flags.owndata and h.flags.writeable for h in hist)  # copies of their own, as u.copy()
    hist[0][...] = -1.0
    assert not np.any(hist[1] == -1.0)
    assert "appends=(hist,energy,)" in P.compiled("history").source.replace(" ", "")


def test_python_numbers_stay_python_numbers():
    """float(v), t, t * dt, a Python float accumulated: Python's types (the Python loop gave
    NumPy float64 scalars for t * dt and the accumulated time); np.sqrt(dt) NumPy's float64."""
    expected, got = same_compiled("python_numbers", np.linspace(0.0, 1.0, 6), 0.1, 4)
    assert [type(x) for x in got[2]] == [float] * 4 and [type(x) for x in got[1]] == [int] * 4
    assert type(got[4][0]) is np.float64


def test_tuples_ints_and_bools():
    same_compiled("tuples_and_ints", np.linspace(0.0, 1.0, 6), 4)


def test_list_read_after_the_loop():
    expected, got = same_compiled("stacked_after", np.linspace(0.0, 1.0, 8), 6)
    assert got[0].dtype == np.float64 and got[0].shape == (6,)


@pytest.mark.parametrize("name, args", [
    ("started_list", (np.linspace(0.0, 1.0, 5), 3)),
    ("carried_and_appended", (np.linspace(0.0, 1.0, 7), 0.05, 4)),
    ("rows_of_array", (np.zeros(3), np.arange(12.0).reshape(4, 3) ** 1.5)),
    ("no_trips", (np.ones(3), 0)),
])
def test_other_forms(name, args):
    same_compiled(name, *args)


def test_two_appends_a_trip_are_stacked():
    """On main a Python loop (NPR033); now a row of two items a trip (tests/loops/test_several_appends.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        expected, got = assert_same_as_numpy(P.module.appended_twice, P.compiled("appended_twice"),
                                             np.linspace(0.0, 1.0, 4), 3)
    assert result_types(got) == result_types(expected)


def test_an_argument_appended_keeps_numpy_identity():
    """NumPy's list holds the caller's array itself, each time: not stacked (copies would not
    see the caller's later writes); the Python loop returns the caller's own array, as before."""
    a = np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        hist, total = P.compiled("appended_unwritten")(a, 3)
    expected = P.module.appended_unwritten(a, 3)
    assert len(hist) == 3 and np.array_equal(total, expected[1])
    assert all(h is a for h in hist) and all(h is a for h in expected[0])


@pytest.mark.parametrize("name", ["appended_written_array", "appended_view"])
def test_a_written_array_appended_is_refused(name):
    """NumPy's list holds u (or a view of it): every item shows the final u. Not stacked as
    snapshots: refused (NPR207), as before."""
    u = np.linspace(0.0, 1.0, 4)
    items = getattr(P.module, name)(u, 3)
    assert all(np.array_equal(x, items[-1]) for x in items)  # NumPy: every item the final state
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(getattr(P.module, name), host_below=0)(np.linspace(0.0, 1.0, 4), 3)
    assert "NPR207" in {d.code for d in info.value.diagnostics}


def test_convert_notes_no_python_loop():
    src = '''
import numpy as np

def f(u, steps):
    hist = []
    for t in range(steps):
        u *= 0.5
        hist.append(u.sum())
    return hist
'''
    result = np2ref.convert_source(src)
    assert result.ok and "NPR033" not in {d.code for d in result.diagnostics}
    assert "appends=(hist,)" in result.code


def test_lazy_list_returned_and_stacked():
    src = P.compiled("lazy_history").source
    assert "lazy=(energy,hist,)" in src.replace(" ", "")
    expected, got = same_compiled("lazy_history", np.linspace(0.0, 1.0, 5), 4)
    assert all(h.flags.owndata for h in got[2])


def test_lazy_list_read_by_a_caller_and_by_pure():
    """The caller reads the helper's list item by item: its rows are made for it."""
    same_compiled("calls_a_lazy_helper", np.linspace(0.0, 1.0, 5), 3)
    import jax
    import jax.numpy as jnp
    u = np.linspace(0.0, 1.0, 5)
    with jax.enable_x64(True):
        (n, energy, hist), finals = P.compiled("lazy_history").pure(jnp.asarray(u), 3)
    expected = P.module.lazy_history(u.copy(), 3)
    assert n == 3 and isinstance(hist, list) and len(hist) == 3
    assert all(np.allclose(np.asarray(h), e) for h, e in zip(hist, expected[2]))
    assert np.allclose(np.asarray(energy), expected[1])


def test_periodic_print_in_an_append_loop(capsys):
    """The print in `if step % every == 0:` runs on the host in order, with NumPy's values:
    the same text as NumPy's (f-string format, float64 repr, Python float)."""
    u = 2.0 ** np.arange(6.0)
    P.module.reported(u.copy(), 7, 3)
    expected = capsys.readouterr().out
    same_compiled("reported", u.copy(), 7, 3)
    printed = capsys.readouterr().out
    assert expected.count("step") == 3 and printed == expected * 2  # NumPy's run in same_compiled, then ours


def test_a_draw_named_method_of_another_object_is_its_own_call():
    """`sampler.sample(n)` was read as a generator draw (NPR023): it is the object's call, made
    on the host each time, the object's state advancing as in NumPy."""
    ours, theirs = P.module.Sampler(), P.module.Sampler()
    compiled = np2ref.compile(P.module.uses_a_sampler, host_below=0)
    for _ in range(3):
        u, v = np.zeros(4), np.zeros(4)
        assert compiled(u, ours) == P.module.uses_a_sampler(v, theirs)
        assert np.array_equal(u, v)
    assert ours.calls == theirs.calls == 3


def test_draws_beside_appends_keep_numpys_stream():
    """The probe traces the loop once more: the caller's generator is drawn from once a trip."""
    ours, theirs = np.random.default_rng(7), np.random.default_rng(7)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        got = P.compiled("random_walk")(np.zeros(3), ours, 5)
    expected = P.module.random_walk(np.zeros(3), theirs, 5)
    assert all(numpys_values(a, b) for a, b in zip(got, expected)) and len(got) == 5
    assert ours.random() == theirs.random()


def test_a_printed_reduction_of_a_large_array(capsys):
    """`print(..., u.max())` of 4,096 float64 values in a compiled loop crashed the process (SIGSEGV
    in jax 0.10.2's XLA:CPU: a 0-d reduction bitcast to the uint32 words a callback sends)."""
    u = np.zeros(4096)
    u[2048] = 1.0
    P.module.reported(u.copy(), 3, 2)
    expected = capsys.readouterr().out
    same_compiled("reported", u.copy(), 3, 2)
    assert capsys.readouterr().out == expected * 2
