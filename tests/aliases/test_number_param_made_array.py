"""A name that may hold a number (a helper's parameter, a local bound to a NumPy scalar) that `op=`
with an array operand makes an array, shared by another name, then written in place:
`t += a[0]; u = t; t -= 1.0`. In NumPy t is a new array after the first `+=`, u the same array, so
the second `-=` writes u too. The translation rebound t at each `op=` and left u unwritten (a wrong
value, on main 7ad43f6 and 5c387a5; found at the review of session 13, beside
test_dp_finance_queues' number_then_row, the same shape with a literal, which was right), and a
local bound to `a.sum()` or `np.float64(2.0)` raised ValueError (a 0-d value taken for a 0-d array
written in place). Now such an `op=` is `t = npr_own(npr_iop(t, op, v, maybe_scalar=True),
scalar=True)` (rules/augassign.py): a number's new array is a Ref that later `op=`s, views and
other names share; a 0-d result stays NumPy's scalar, which the next `op=` rebinds."""

import numpy as np
import pytest

from tests.conftest import assert_returns_as_numpy

K = 0.25


def helper(t, a):
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def helper_int(t, a):
    t += a[0]
    u = t
    t -= 1
    return t, u


def given_a_number(a, s):
    return helper(s, a)


def given_a_literal(a):
    return helper(0.0, a)


def given_an_int_literal(a):
    return helper(1, a)


def given_an_int_into_ints(a):
    return helper_int(2, a)


def given_a_module_constant(a):
    return helper(K, a)


def given_a_numpy_scalar(a):
    return helper(a[0, 0], a)


def defaulted(t=0.0, a=None):
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def given_the_default(a):
    return defaulted(a=a)


def viewed(t, a):
    t += a[0]
    v = t[1:]
    t -= 1.0
    return t, v


def given_a_number_viewed(a, s):
    return viewed(s, a)


def in_a_loop(a, s):
    out = []
    for i in range(2):
        t = s
        t += a[i]
        u = t
        t *= 2.0
        out.append(u.sum())
    return out


def made_in_a_loop(t, a, n):
    u = None
    for i in range(n):
        t += a[i]
        u = t
        t *= 2.0
    return t, u


def given_a_number_looped(a):
    return made_in_a_loop(0.5, a, 3)


def local_sum(a):
    t = a.sum()
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def local_numpy_scalar(a):
    t = np.float64(2.0)
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def rows_one_d(a):
    """a 1-d a: `t += a[0]` keeps t a scalar, so `t -= 1.0` rebinds it and u keeps its value"""
    t = a.sum()
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def _two_d():
    return np.arange(6.0).reshape(3, 2)


CASES = {
    "number": (given_a_number, lambda: (_two_d(), 0.5)),
    "literal": (given_a_literal, lambda: (_two_d(),)),
    "int_literal": (given_an_int_literal, lambda: (_two_d(),)),
    "int_into_ints": (given_an_int_into_ints, lambda: (np.arange(6).reshape(3, 2),)),
    "module_constant": (given_a_module_constant, lambda: (_two_d(),)),
    "numpy_scalar": (given_a_numpy_scalar, lambda: (_two_d(),)),
    "default": (given_the_default, lambda: (_two_d(),)),
    "viewed": (given_a_number_viewed, lambda: (_two_d(), 0.5)),
    "loop": (in_a_loop, lambda: (_two_d(), 0.5)),
    "helper_loop": (given_a_number_looped, lambda: (np.arange(8.0).reshape(4, 2),)),
    "local_sum": (local_sum, lambda: (_two_d(),)),
    "local_numpy_scalar": (local_numpy_scalar, lambda: (_two_d(),)),
    "one_d_stays_scalar": (rows_one_d, lambda: (np.arange(3.0),)),
}


@pytest.mark.parametrize("case", CASES)
def test_a_number_made_an_array_is_shared(case):
    fn, args = CASES[case]
    assert_returns_as_numpy(fn, args)


def given_a_numpy_scalar_expression(a):
    return helper(np.float64(0.5), a[:, :1])


# (a strict xfail on alias14; fixed by kinds14b's npr_iop: a NumPy scalar a helper op=s is rebound)
def test_a_numpy_scalar_expression_passed_is_rebound():
    assert_returns_as_numpy(given_a_numpy_scalar_expression, lambda: (_two_d(),))
