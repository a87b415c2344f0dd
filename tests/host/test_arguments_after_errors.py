"""The arguments after a failed run-time check (docs/semantics.md, "State after the error"): NumPy
stopped at the failing statement, its arrays written up to there; the jitted call raises the
same exception after its program ran and before anything is written back, so every array
argument is left as it was before the call (the host route, which runs the original on small
calls, leaves NumPy's partial writes: the fuzzer allows either, np2ref/fuzz/raises.py). Each
check kind: an index known when the program runs, an assert, a `raise`, Python's
ZeroDivisionError, NumPy's LinAlgError, Python's int() of NaN in a store, UnboundLocalError, in
`for` and `while` loops; the arguments given as arrays and as views of a larger one; and the
next call on fresh arguments gives NumPy's answer (no half-written or donated buffer left
behind)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, program

P = program("arguments_after_errors")

# name -> (arguments raising, arguments not raising), the exception NumPy raises
CASES = {
    "indexed": (lambda: (np.arange(6.0), np.zeros(6), 6, np.int64(3)),
                lambda: (np.arange(6.0), np.zeros(6), 3, np.int64(2)), IndexError),
    "asserted": (lambda: (np.arange(6.0), np.zeros(6), 6, np.float64(7.0)),
                 lambda: (np.arange(6.0), np.zeros(6), 2, np.float64(7.0)), AssertionError),
    "raised": (lambda: (np.arange(6.0), np.zeros(6), 6, np.float64(3.5)),
               lambda: (np.arange(6.0), np.zeros(6), 2, np.float64(3.5)), ValueError),
    "divided": (lambda: (np.arange(6.0), np.zeros(6), 4), lambda: (np.arange(6.0), np.zeros(6), 2), ZeroDivisionError),
    "inverted": (lambda: (np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros(2), np.float64(1.0)),
                 lambda: (np.array([[1.0, 2.0], [3.0, 4.0]]), np.zeros(2), np.float64(2.0)), np.linalg.LinAlgError),
    "cast": (lambda: (np.array([1.5, -2.5, np.nan, 4.0]), np.zeros(4, np.int64), 4),
             lambda: (np.array([1.5, -2.5, np.nan, 4.0]), np.zeros(4, np.int64), 2), ValueError),
    "unbound": (lambda: (np.arange(4.0), np.zeros(4)), lambda: (np.arange(2.0, 6.0), np.zeros(4)), UnboundLocalError),
    "in_a_while": (lambda: (np.arange(1.0, 7.0), np.zeros(8), np.int64(3)),
                   lambda: (np.arange(1.0, 7.0), np.zeros(8), np.int64(0)), IndexError),
}


@functools.cache
def _compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


def _arrays(args):
    return [a.copy() for a in args if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_argument_left_as_it_was(name):
    failing, _, kind = CASES[name]
    theirs, ours = failing(), failing()
    before = _arrays(ours)
    with pytest.raises(kind) as want:
        getattr(P, name)(*theirs)
    assert any(not np.array_equal(a, b, equal_nan=True) for a, b in zip(_arrays(theirs), before)), \
        "NumPy wrote nothing before its error: no test"
    with pytest.raises(kind) as got:
        _compiled(name)(*ours)
    assert str(got.value) == str(want.value)
    for a, b in zip(_arrays(ours), before):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", sorted(CASES))
def test_views_of_a_larger_array_left_as_they_were(name):
    """The arguments as views (every other element of a larger array, or a block of it): the
    larger array is left as it was, the elements between them too."""
    failing, _, kind = CASES[name]
    args = failing()
    bases = [np.stack([a, a + 100]) if isinstance(a, np.ndarray) else None for a in args]
    views = [b[0] if b is not None else a for a, b in zip(args, bases)]
    before = [b.copy() for b in bases if b is not None]
    with pytest.raises(kind):
        _compiled(name)(*views)
    for a, b in zip([b for b in bases if b is not None], before):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_next_call_is_numpys(name):
    failing, passing, kind = CASES[name]
    with pytest.raises(kind):
        _compiled(name)(*failing())
    theirs, ours = passing(), passing()
    want = getattr(P, name)(*theirs)
    got = _compiled(name)(*ours)
    assert_numpys_bits(got, want)
    for a, b in zip(_arrays(ours), _arrays(theirs)):
        assert_numpys_bits(a, b)
