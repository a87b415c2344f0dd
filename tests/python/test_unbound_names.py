"""A name a data-dependent branch or loop may leave unbound, read later: Python's
UnboundLocalError when the program runs, differential against NumPy on both paths (bound and
unbound); reads that cannot see an unbound name get no check (rewrite/rules/unbound.py,
rt/unbound.py)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("unbound_names")
SOURCE = open(P.__file__).read()


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


def _same(name, *args):
    """The original and the translation agree: the same result, or the same exception."""
    fn = getattr(P, name)
    try:
        fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except UnboundLocalError as exc:
        given = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        with pytest.raises(UnboundLocalError) as got:
            compiled(name)(*given)
        assert str(got.value) == str(exc)
        for a, b in zip(args, given):  # raised before anything is written back
            if isinstance(a, np.ndarray):
                np.testing.assert_array_equal(a, b)
        return "unbound"
    assert_same_as_numpy(fn, compiled(name), *args)
    return "bound"


CASES = [
    ("branch", [np.array([1.0, 2.0])], [np.array([-1.0, 2.0])]),
    ("elif_chain", [np.array([2.0, 3.0, 4.0])], [np.array([0.5, 3.0, 4.0])], [np.array([-1.0, 3.0, 4.0])]),
    ("loop_branch", [np.array([1.0, 9.0, 7.0, 2.0])], [np.array([1.0, 2.0, 3.0, 4.0])], [np.zeros(0)]),
    ("short_loop", [np.array([1.0, 9.0, 2.0])], [np.array([1.0, 2.0, 3.0])]),
    ("while_never", [np.array([1.0, 2.0, 0.0])], [np.array([0.0, 2.0, 3.0])]),
    ("in_body", [np.array([1.0, -2.0, 3.0]), np.zeros(3)], [np.array([-1.0, 2.0, 3.0]), np.zeros(3)]),
    ("accumulate", [np.array([1.0, 2.0])], [np.array([-1.0, 2.0])]),
    ("calls_helper", [np.array([1.0, 2.0, 3.0])], [np.array([1.0, 2.0, -3.0])]),
    ("loop_target", [np.zeros(3), 2], [np.zeros(3), 0]),
]


@pytest.mark.parametrize("name, inputs", [(c[0], c[1:]) for c in CASES], ids=[c[0] for c in CASES])
def test_same_as_numpy_on_both_paths(name, inputs):
    # the first input binds the name (NumPy returns), the others leave it unbound (NumPy raises)
    seen = [_same(name, *inputs[0])] + [_same(name, *args) for args in inputs[1:]]
    assert seen[0] == "bound" and "unbound" in seen[1:], seen


def test_the_first_failing_check_is_raised():
    """An unbound read and an out-of-range index in one loop: the one NumPy meets first."""
    x, out = np.array([1.0, -2.0, 3.0]), np.zeros(3)
    for first, idx in [(IndexError, [0, 7, 1]), (UnboundLocalError, [7, 0, 1])]:
        xs = x if first is IndexError else -x
        with pytest.raises(first) as expected:
            P.first_error(xs.copy(), np.array(idx), out.copy())
        given = out.copy()
        with pytest.raises(first) as got:
            compiled("first_error")(xs.copy(), np.array(idx), given)
        assert str(got.value) == str(expected.value)
        np.testing.assert_array_equal(given, out)


def test_first_failing_iteration_and_no_write_back():
    """The read inside the loop body fails in the first iteration before a positive element:
    the call raises there, and `out` is not written back."""
    out = np.full(4, 7.0)
    with pytest.raises(UnboundLocalError, match="local variable 'last'"):
        compiled("in_body")(np.array([-1.0, 2.0, -3.0, 4.0]), out)
    np.testing.assert_array_equal(out, np.full(4, 7.0))


def _converted(name):
    result = np2ref.convert_source(SOURCE, "unbound_names.py", only={name})
    assert result.code is not None, [d.render() for d in result.diagnostics]
    return result.code


def test_checks_only_where_a_read_may_see_it_unbound():
    text = _converted("branch")
    assert "npr_defined(y, 'y')" in text and "npr_unbound" in text
    # bound on every path (both branches; the body binds t before reading it; u rebound before
    # its read): no flag, no check
    text = _converted("bound_everywhere")
    assert "npr_defined" not in text and "npr_unbound" not in text
    assert _same("bound_everywhere", np.array([1.0, -2.0, 3.0])) == "bound"
    assert _same("bound_everywhere", np.array([-1.0, 2.0, 3.0])) == "bound"


def test_read_passed_to_a_nested_function_is_refused():
    result = np2ref.convert_source(SOURCE, "unbound_names.py", only={"captured"})
    codes = [d.code for d in result.diagnostics]
    assert "NPR129" in codes, codes


def test_unbound_for_certain_in_a_traced_branch_is_refused():
    """m is unbound for certain (the loop ran zero times) and read in a branch on data: Python
    raises only if the branch runs; np2ref cannot type the value the branch would go on with."""
    with pytest.raises(np2ref.Np2RefError, match="NPR129"):
        compiled("unbound_then_branch")(np.array([6.0, 2.0, 3.0]))
    assert _same("unbound_then_branch", np.array([1.0, 2.0, 3.0, 4.0])) == "bound"
    assert _same("unbound_then_branch", np.array([6.0, 2.0, 3.0, 4.0])) == "bound"


def test_loop_target_after_a_loop_on_data_is_refused():
    """`for i in range(n)` with n read from data and i read after it: the loop stays Python
    (Python leaves i bound to the last value, or unbound), whose trip count cannot be data."""
    with pytest.raises(np2ref.Np2RefError, match="NPR031"):
        compiled("loop_target_traced")(np.array([-1.0, -2.0]))
