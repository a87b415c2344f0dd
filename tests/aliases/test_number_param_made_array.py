"""A helper's number parameter that `+=` makes an array, shared by another name, then written in
place: `t += a[0]; u = t; t -= 1.0` (NumPy: t is a new array after the first `+=`, u the same
array, so the second `-=` writes u too). The translation rebinds t at each `op=` and leaves u
unwritten: a wrong value, on main 7ad43f6 (the start of session 13) as well; found at the review
of session 13, beside test_dp_finance_queues' number_then_row (the same shape in the function
itself, which is right). Saved open: the helper's parameter is no Ref (rt/views.npr_own keeps a
traced Python number a value), and nothing notes that an `op=` with an array operand makes it one."""

import numpy as np
import pytest

from tests.conftest import assert_returns_as_numpy


def helper(t, a):
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def given_a_number(a, s):
    return helper(s, a)


def given_a_literal(a):
    return helper(0.0, a)


@pytest.mark.xfail(strict=True, reason="open: u left unwritten (the module's docstring)")
@pytest.mark.parametrize("fn, extra", [(given_a_number, (0.5,)), (given_a_literal, ())], ids=["number", "literal"])
def test_a_number_parameter_made_an_array_is_shared(fn, extra):
    assert_returns_as_numpy(fn, lambda: (np.arange(6.0).reshape(3, 2), *extra))
