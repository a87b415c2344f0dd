"""A NumPy scalar a helper hands back, bound to a name the caller writes or shares: `v = h(dt)` with
`def h(p): p += 1; return p` of an np.float64 (fuzz_697edbcdce), `r = h(a)` with h returning
`np.zeros(()) + a[0]` (NumPy's scalar). views.npr_own made such a value a Ref, taking it for a 0-d
array: isinstance(v, float) was False, and `s = r; r += 1.0` wrote s, a wrong value. And a helper's
`p -= 0.5` of an np.int64 passed raised same_kind's UFuncTypeError, as for an array written in place,
where NumPy rebinds p to np.float64 (ops.npr_iop). A 0-d value no array maker made and no Ref loaded
is NumPy's scalar (rt/introspect.py's rule): a value, rebound by `op=`. Differential: results with
their types and every argument, against NumPy."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from np2ref.verify.compare import first_difference


def bumped(p, k):
    p += 1
    return p


def bumped_kind(n, dt):
    v = bumped(dt, n)
    return isinstance(v, (int, float)), type(v).__name__, v, dt


def bumped_again(n, dt):
    v = bumped(dt, n)
    w = v
    v += 1.0
    return v, w, dt


def first_plus(a):
    return np.zeros(()) + a[0]


def shared_then_op(a):
    r = first_plus(a)
    s = r
    r += 1.0
    return s, r


def summed(a):
    return a.sum()


def shared_sum(a):
    r = summed(a)
    s = r
    r *= 2.0
    a[0] = r
    return s, r


def offset(p, k):
    p += k
    p -= 0.5
    return p


def offset_into(u, t, k):
    s = offset(t, k)
    u[:1] = s
    return s, t


CASES = [(bumped_kind, lambda: (2, np.float64(0.5))), (bumped_kind, lambda: (2, 0.5)),
         (bumped_kind, lambda: (2, np.float32(0.5))), (bumped_kind, lambda: (2, np.array([0.5]))),
         (bumped_again, lambda: (2, np.float64(0.5))), (bumped_again, lambda: (2, np.array([0.5]))),
         (shared_then_op, lambda: (np.arange(3.0),)), (shared_sum, lambda: (np.arange(3.0),)),
         (offset_into, lambda: (np.arange(4.0), np.int64(3), 2)),
         (offset_into, lambda: (np.arange(4.0), np.float32(3.0), 2)),
         (offset_into, lambda: (np.arange(4.0), np.int32(3), np.int64(2)))]


@functools.cache
def _compiled(fn):
    return np2ref.compile(fn, host_below=0)


@pytest.mark.parametrize("fn, make", CASES, ids=[f.__name__ for f, _ in CASES])
def test_a_numpy_scalar_from_a_helper_is_a_value(fn, make):
    a0, a1 = make(), make()
    want, got = fn(*a0), _compiled(fn)(*a1)
    assert first_difference(want, got, "result") is None
    for i, (x, y) in enumerate(zip(a0, a1)):
        assert first_difference(x, y, f"argument {i}") is None
