"""Loops with early returns and carried Python values (tests/programs/loop_returns.py) against
NumPy: results, every argument after the call, and the Python types of returned scalars (a
returned `it + 1` is a Python int, a returned `True` a Python bool: result_types cannot tell
NumPy's bool from Python's, so those are checked by `type(...) is bool`)."""

from __future__ import annotations

import numpy as np
from conftest import ProgramChecks

CHECKS = ProgramChecks("loop_returns")
_same = CHECKS.same


def test_a_return_in_a_range_loop_under_a_data_test_returns_the_array_an_int_and_a_bool():
    for tol in (2.0, 1e-9):  # returns in the loop (k + 1, True), or after it (6, False)
        expected, got = _same("return_in_range_loop", np.array([1, 4, 2, 8]), tol)
        assert type(got[1]) is int and type(got[2]) is bool and got[2] == expected[2]


def test_break_with_a_value_in_nested_loops():
    a = np.arange(12.0).reshape(3, 4)
    for t in (6.5, 20.0):  # found in the second row, or never (-1)
        _same("nested_break_with_value", a, t)


def test_for_else_gives_the_found_index_or_the_else_value():
    _same("for_else_search", np.array([1.0, 5.0, 2.0]), 3.0)
    _same("for_else_search", np.array([1.0, 2.0]), 3.0)


def test_the_loop_index_after_a_loop_that_never_breaks_is_the_last_one():
    _same("index_after_the_loop", np.array([1.0, 5.0, 2.0]), 3.0)
    _same("index_after_the_loop", np.array([1.0, 2.0]), 3.0)


def test_a_while_loop_returning_a_written_array_an_int_and_a_bool():
    # was NPR122: the untyped `_value_` carries of a traced while whose refs are lifted were
    # typed by the float placeholder, not y's shape (now settled before the lift)
    for x in (np.array([4.0, 8.0]), np.array([0.5, 0.25])):  # returns in the loop; never loops
        expected, got = _same("while_returns_array_and_count", x, 1.0)
        assert type(got[2]) is bool


def test_a_written_array_returned_from_a_loop_is_its_value_at_the_return():
    _same("return_written_array", np.array([1.0, 2.0]))
    _same("return_written_array", np.array([1.0, -2.0]))


def test_a_users_name_like_a_loop_value_still_aliases():
    _same("named_like_a_loop_value", np.array([1.0, 2.0]))


def test_a_flag_returned_from_a_loop_is_pythons_bool():
    # was NPR128 (the untyped carry typed float64 against the bool), then NumPy's bool
    for x in (np.array([1.0, -2.0]), np.array([1.0, 2.0])):
        expected, got = _same("has_negative", x)
        assert type(got) is bool and got == expected


def test_a_return_in_a_loop_with_an_else():
    # was NPR030: loop_returns left loops with an `else:` as written
    _same("for_else_return", np.array([1.0, 5.0]), 3.0)
    _same("for_else_return", np.array([1.0, 2.0]), 3.0)
    _same("for_else_bare_return", np.array([1.0, -2.0, 3.0]))
    _same("for_else_bare_return", np.array([1.0, 2.0]))


def test_a_while_loop_carrying_a_numpy_scalar_and_an_int():
    # was AttributeError (a carried tuple); the item x[i] stays NumPy's float64, i a Python int
    _same("while_tuple_of_element_and_index", np.array([1.0, 2.0, -1.0]))
    _same("while_tuple_of_element_and_index", np.array([-1.0, 2.0]))
