"""Identity through helpers, the shapes a review listed (wrong8): a view returned by a helper
that only reads its parameter (`def inner(a): return a[1:-1]`, then `v = inner(u); v[:] = 0`),
a helper's returned argument carried out of a loop (`for ..: r = in_place(r)`, then `r[0] = 1`),
and the same chosen by a conditional expression (`r = in_place(u) if c else step(u)`), where
the write was lost: refused now, NPR128 (rules/ifexp_identity.py). Each translated case is
differential: results and every argument against NumPy; the others are refused with a code."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref


def inner(a):
    return a[1:-1]


def in_place(r):
    r *= 2
    return r


def step(r):
    return r * 2


def same(a):
    return a


def zeroed_through_view(u):
    v = inner(u)
    v[:] = 0.0
    return u


def added_through_view(u):
    v = inner(u)
    v += 1.0
    u[2] = 7.0  # the base written after: the view sees it
    return v.sum()


def view_written_in_a_loop(u, n):
    for i in range(n):
        v = inner(u)
        v[i] = i
    return u


def carried_for(u, n):
    r = u
    for _ in range(n):
        r = in_place(r)
    r[0] = 1.0
    return r


def carried_while(u, t):
    r = u
    while r.sum() < t:
        r = in_place(r)
    r[0] = -1.0
    return r


TRANSLATED = [(zeroed_through_view, (np.arange(5.0),)), (added_through_view, (np.arange(5.0),)),
              (view_written_in_a_loop, (np.arange(6.0), 3)), (carried_for, (np.arange(4.0), 0)),
              (carried_for, (np.arange(4.0), 3)), (carried_while, (np.arange(1.0, 5.0), 100.0))]


@pytest.mark.parametrize("fn, args", TRANSLATED, ids=lambda v: getattr(v, "__name__", None))
def test_a_helpers_view_or_argument_is_written_as_numpy_writes_it(fn, args):
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    expected, out = fn(*ref), np2ref.compile(fn, host_below=0)(*got)
    np.testing.assert_array_equal(out, expected)
    assert type(out) is type(expected)
    for a, b in zip(ref, got):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(b, a)
            assert b.dtype == a.dtype
    if isinstance(expected, np.ndarray):  # the caller's own array where NumPy returns it
        assert (expected is ref[0]) == (out is got[0])


def chosen_by_data(u, t):
    r = in_place(u) if u.sum() > t else step(u)
    r[0] = -5.0


def chosen_by_flag(u, flag):
    r = in_place(u) if flag else step(u)
    r[0] = -5.0


def itself_chosen(u, t):
    r = same(u) if u.sum() > t else step(u)
    r[0] = -5.0


def itself_returned(u, t):
    return same(u) if u.sum() > t else step(u)


@pytest.mark.parametrize("fn, extra", [(chosen_by_data, 5.0), (chosen_by_flag, True), (itself_chosen, 5.0),
                                       (itself_returned, 5.0)])
def test_a_helpers_argument_chosen_by_a_conditional_expression_is_refused(fn, extra):
    """NumPy's write reaches `u` on the helper's path (`u` returned itself); the translation
    wrote a copy: u stayed [2, 4, 6, 8] where NumPy gives [-5, 4, 6, 8] (a static flag too)."""
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(np.arange(1.0, 5.0), extra)
    assert [d.code for d in info.value.diagnostics] == ["NPR128"]


def view_chosen_returned(u, t):
    return inner(u) if u.sum() > t else u[2:]


def test_a_read_only_view_chosen_and_returned_keeps_its_values():
    """Returned and never written: a view of an argument the function only reads comes back a
    copy with NumPy's values, as `return u[1:-1]` does (docs/guide.md), not refused."""
    u = np.arange(6.0)
    np.testing.assert_array_equal(np2ref.compile(view_chosen_returned, host_below=0)(u.copy(), 1.0),
                                  view_chosen_returned(u.copy(), 1.0))
