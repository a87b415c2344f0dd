"""Ordinary Python around NumPy code inside a compiled function (issue 19): `assert` on array
data, builtins on array values, and refusals that should not happen. Each test is differential:
the original NumPy function against np2ref.compile of it."""

import itertools
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import np2ref
from conftest import program
from np2ref.diagnostics import Np2RefError


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return (type(exc).__name__, exc.args)


def _same(f, g, *args):
    copies = [np.array(a) if isinstance(a, np.ndarray) else a for a in args]
    want, got = _outcome(f, *args), _outcome(g, *copies)
    assert want[0] == got[0], (want, got)
    if want[0] != "ok":  # (a run-time check raises before anything is written back, as for indices)
        assert want[1] == got[1]
        return
    np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]))
    assert np.asarray(got[1]).dtype == np.asarray(want[1]).dtype
    assert type(got[1]) is type(want[1]) or isinstance(want[1], np.generic)
    for a, c in zip(args, copies):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(c, a)


P = program("asserts_and_returns")


# ---- assert ------------------------------------------------------------------------------
def test_assert_on_array_data_raises_assertion_error_when_the_program_runs():
    g = np2ref.compile(P.asserts)
    for v in ([1.0, 2.0], [1.0, -5.0], [1.0, -1.0], [np.nan, 1.0]):
        _same(P.asserts, g, np.array(v))
    with pytest.raises(AssertionError, match="^x must be positive$"):
        g(np.array([1.0, -1.0]))


def test_assert_on_an_array_of_many_elements_raises_numpys_value_error():
    _same(P.assert_many, np2ref.compile(P.assert_many), np.array([1.0, 2.0]))


def test_assert_is_skipped_under_python_O(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import numpy as np, np2ref
        def f(x):
            assert x.sum() > 0, "never"
            return x + 1
        print(np2ref.compile(f)(np.array([-1.0, -2.0])).tolist())
    """))
    out = subprocess.run([sys.executable, "-O", str(script)], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-2:] == ["[0.0,", "-1.0]"]


# ---- refusals that should not happen, and their messages ---------------------------------
def test_a_float_argument_used_as_a_size_is_refused_naming_it():
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(P.float_default_size)(np.ones(2))
    text = str(info.value)
    assert "NPR031" in text and "the float argument `a`" in text and "static_argnames" in text
    assert "asserts_and_returns.py:" in text and ":0:" not in text


def test_a_statically_dead_block_is_not_host_work():
    _same(P.dead_random, np2ref.compile(P.dead_random), np.arange(3.0))


def test_itertools_repeat_loops_as_range():
    _same(P.repeat_loop, np2ref.compile(P.repeat_loop), np.arange(3.0), 3)


def test_itertools_product_loops_as_nested_loops():
    f = np2ref.compile(P.product_loops, host_below=0)
    _same(P.product_loops, f, np.arange(12.0).reshape(3, 4))
    assert "itertools.product" not in f.source and "npr_for(" in f.source  # lax loops, not host code


def test_float_is_integer_on_array_data():
    f = np2ref.compile(P.integer_tests)
    for x in (np.array([2.0, 2.5, np.inf]), np.array([np.nan, -0.0, 3.0])):
        _same(P.integer_tests, f, x)


@pytest.mark.parametrize("name, why", [
    ("growing_history", r"float64\[0\] -> float64\[1\]\): its shape changes from one iteration to the next"),
    ("scalar_becomes_array", r"float64\[\] -> float64\[2\]\): after a loop that may not run")])
def test_a_while_loop_changing_a_carried_shape_is_refused_saying_so(name, why):
    # was NPR127 "code that runs only for some data raises ValueError", and for the second a
    # silent array of zeros where NumPy returns 0.0 when the loop does not run
    with pytest.raises(Np2RefError, match=r"asserts_and_returns.py:\d+:5: NPR130 .*" + why):
        np2ref.compile(getattr(P, name))(np.array([1.0, 2.0]))


def test_a_slice_bounded_by_while_state_is_a_coded_refusal():
    with pytest.raises(Np2RefError, match=r"asserts_and_returns.py:\d+:9: NPR111 a slice whose bounds are known only"):
        np2ref.compile(P.while_window)(np.array([1.0, 2.0, 0.0]))  # was JAX's raw IndexError


def test_a_return_in_a_branch_on_data_is_one_exit():
    f = np2ref.compile(P.return_in_helper_branch)
    for x in (np.ones(2), -np.ones(2)):
        _same(P.return_in_helper_branch, f, x)
    # a helper called in a loop; an elif chain whose last branch falls through to the rest
    g = np2ref.compile(P.early_returns)
    _same(P.early_returns, g, np.array([1.5, -2.0, 3.0, 0.0, -2.5, 0.5, 2.0, -2.0]))


def test_a_return_in_a_branch_on_data_refused_with_its_reason():
    with pytest.raises(Np2RefError) as info:  # np.int64 or a Python float, by the data
        np2ref.compile(P.returns_other_type)(np.array([1, 2]))
    line = next(i for i, t in enumerate(open(P.__file__), 1) if "def _returns_other_type" in t) + 1
    assert f"asserts_and_returns.py:{line}:5: NPR128" in str(info.value)
    assert "a int64 scalar and a Python float" in str(info.value)
    with pytest.raises(Np2RefError) as info:  # a path returns None: left as written
        np2ref.compile(P.return_left_as_written)(np.ones(2))
    line = next(i for i, t in enumerate(open(P.__file__), 1) if "def _falls_off" in t) + 1
    text = str(info.value)
    assert f"asserts_and_returns.py:{line}:5: NPR030 an `if` on array data with a `return` inside" in text
    assert "every path through it ends in a `return`" in text
