"""`a.astype(t, copy=False)`, `np.array(a, copy=False)` (or `copy=None`) and
`np.ascontiguousarray(a)` return `a` itself where its dtype is
already `t` (NumPy 2: `copy=False` never copies), a new array otherwise. np2ref took both for
copies: a write through the result did not reach `a` (nor the caller's array), a write to `a` did
not reach the result, and a history list of them held every trip's values where NumPy's holds the
one array three times: wrong answers on main (2c0ed5e). `a.astype(t, copy=False)` and
`np.ascontiguousarray(a)` of an array that is written are now refused (NPR205,
analysis/effects.copy_false); `np.array(a, copy=False/None)` is modelled as NumPy 2's
`np.asarray(a, copy=...)` (analysis/effects.view_call); read-only uses translate as before."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from tests.conftest import assert_returns_as_numpy


def written_after(v):
    x = v.astype(np.float64, copy=False)
    v += 1.0
    return x


def written_through(v):
    x = v.astype(np.float64, copy=False)
    x += 1.0
    return v


def array_copy_false(v):
    x = np.array(v, copy=False)
    x += 1.0
    return v


def array_copy_none(v):
    x = np.array(v, copy=None)
    v += 1.0
    return x


def contiguous(v):
    x = np.ascontiguousarray(v)
    x += 1.0
    return v


def history(v):
    h = []
    for k in range(3):
        v += 1.0
        h.append(v.astype(v.dtype, copy=False))
    return h


def read_only(v, w):
    x = v.astype(np.float64, copy=False)
    y = np.array(w, copy=False)
    z = np.ascontiguousarray(v[::2])
    return x * 2.0 + y.sum() + z.sum(), x.dtype == v.dtype


def asarray_written(v):
    x = np.asarray(v, dtype=np.float64)
    x += 1.0
    return v


@pytest.mark.parametrize("fn", [written_after, written_through, contiguous, history])
def test_a_may_view_of_a_written_array_is_refused(fn):
    with pytest.raises(np2ref.Np2RefError) as caught:
        np2ref.compile(fn, host_below=0)(np.zeros(2))
    assert "NPR205" in str(caught.value) or "NPR207" in str(caught.value)


@pytest.mark.parametrize("fn, make", [
    (read_only, lambda: (np.arange(3.0), np.arange(4.0))),
    (read_only, lambda: (np.arange(3, dtype=np.float32), np.arange(4))),
    (asarray_written, lambda: (np.zeros(2),)),
    (array_copy_false, lambda: (np.zeros(2),)),  # (alias14: NumPy 2's np.asarray(x, copy=...), modelled)
    (array_copy_none, lambda: (np.zeros(2),)),
    (array_copy_none, lambda: (np.zeros(2, np.float32),)),
    (asarray_written, lambda: (np.zeros(2, np.float32),)),
])
def test_what_is_not_written_or_is_modelled_translates(fn, make):
    assert_returns_as_numpy(fn, make)
