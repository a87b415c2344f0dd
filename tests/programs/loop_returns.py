"""Loops with early returns and carried Python values (tests/loops/test_loop_returns.py): solvers with a
tolerance test, searches, each against NumPy (results, arguments, Python scalar types)."""

import numpy as np


def while_returns_array_and_count(x, tol):
    """A `return` in a `while` on data: a written array, a Python int and a bool."""
    y = x.copy()
    n = 0
    while y.max() > tol:
        y *= 0.5
        n += 1
        if y[0] < tol:
            return y, n, True
    return y, n, False


def nested_break_with_value(a, t):
    """A value found in an inner loop, broken out of both by flags."""
    found = -1
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] > t:
                found = i * a.shape[1] + j
                break
        if found >= 0:
            break
    return found


def for_else_search(x, t):
    """`for ... else`: the else runs when no `break` did."""
    pos = 0
    for i in range(len(x)):
        if x[i] > t:
            pos = i
            break
    else:
        pos = -1
    return pos


def index_after_the_loop(x, t):
    """The loop index read after a loop that may never break: the last index then."""
    for i in range(len(x)):
        if x[i] > t:
            break
    return i


def return_in_range_loop(x, tol):
    """A return under a data test in a `for` over a range, the array written before it."""
    r = x.astype(float)
    for k in range(6):
        r[1:] = 0.5 * (r[1:] + r[:-1])
        if np.abs(np.diff(r)).max() < tol:
            return r, k + 1, True
    return r, 6, False


def return_written_array(a):
    """`return x` in a loop, x written in place before the test (a load where it returns)."""
    x = a.copy()
    for i in range(3):
        x[0] += 1.0
        if x[1] > 0:
            return x
    return x


def named_like_a_loop_value(a):
    """A user's name that looks like loop_returns' own (`_value_3 = x`) still aliases x."""
    x = a.copy()
    for i in range(3):
        _value_3 = x
        x[0] += a[1]
    return _value_3


def has_negative(x):
    """`return True` in a loop on data, `return False` after it: a Python bool either way."""
    for i in range(len(x)):
        if x[i] < 0:
            return True
    return False


def for_else_return(x, t):
    """`return` in the loop and in its `else:` (no `break` of its own: the else runs when no
    return did)."""
    for i in range(len(x)):
        if x[i] > t:
            return i
    else:
        return -1


def for_else_bare_return(a):
    """A bare `return` in the loop, an `else:` that writes."""
    for i in range(len(a)):
        if a[i] < 0:
            a[i] = 0.0
            return
    else:
        a[0] = -1.0


def while_tuple_of_element_and_index(x):
    """A `while` on data carrying a tuple of a NumPy scalar and a Python int."""
    i = 0
    best = (x[0], 0)
    while i < len(x) and x[i] > 0:
        best = (x[i], i)
        i += 1
    return best
