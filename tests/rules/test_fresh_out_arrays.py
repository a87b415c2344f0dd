"""`out=` a new array made in the call: the guarded division `np.divide(a, b,
out=np.zeros_like(a), where=b != 0)` (flux limiters' smoothness ratio), `np.add(a, b,
out=np.zeros(n, np.int32), casting="unsafe")`, `np.sqrt(x, out=np.empty_like(x))`. The new
array is written through a Ref and read back (rules/out_args._fresh); it was NPR205 ("the
temporary it writes into is not modelled"), which failed `np2ref convert` for the whole file.
An empty array with where= stays refused: NumPy leaves its other elements as memory held them.
Compared against NumPy: results bit for bit, dtypes, the arguments written.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits


def ratio(q, nu):
    dq = np.roll(q, -1) - q
    r = np.divide(q - np.roll(q, 1), dq, out=np.zeros_like(q), where=dq != 0)
    q -= nu * np.maximum(0.0, np.minimum(1.0, r))
    return r


def casts(a, b):
    ints = np.add(a, b, out=np.zeros(a.shape, dtype=np.int32), casting="unsafe")
    ones = np.multiply(a, 2.5, out=np.ones_like(a), where=a > 1)
    full = np.subtract(a, b, out=np.full(a.shape, -1.0, dtype=np.float32), where=b < 3, casting="same_kind")
    roots = np.sqrt(a, out=np.empty_like(a))
    return ints, ones, full, roots


def garbage(a):
    return np.sqrt(a, out=np.empty_like(a), where=a > 1)


def test_the_guarded_division_writes_a_new_array():
    q0 = np.array([0.0, 1.0, 1.0, 2.0, 0.0, 0.0, 3.0, 3.0])
    want_q = q0.copy()
    want = ratio(want_q, 0.5)
    got_q = q0.copy()
    got = np2ref.compile(ratio)(got_q, 0.5)
    assert_numpys_bits(got, want)
    assert_numpys_bits(got_q, want_q)


def test_new_arrays_keep_their_dtype_and_the_values_left_out():
    a = np.array([0.5, 1.5, 3.0, 4.25])
    b = np.array([1.2, 2.7, 3.9, 0.5])
    want = casts(a, b)
    got = np2ref.compile(casts)(a, b)
    for g, w in zip(got, want):
        assert_numpys_bits(g, w)


def test_an_empty_array_under_where_stays_refused():
    with pytest.raises(np2ref.Np2RefError) as err:
        np2ref.compile(garbage)(np.arange(4.0))
    assert {d.code for d in err.value.diagnostics} == {"NPR205"}
