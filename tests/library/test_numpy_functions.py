"""NumPy functions added for issue 19 (ufunc methods, np.bincount, np.histogram, index helpers,
np.ndindex, np.mgrid/np.ogrid), end to end through np2ref.compile: the same results and dtypes
as NumPy, and the coded refusals where the length or the bin edges depend on the data. The
table rows themselves are checked dtype by dtype in tests/library/test_numpy_table.py."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program


def fns():
    return program("numpy_functions")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(fns(), name))


RNG = np.random.default_rng(19)


def test_ufunc_methods():
    x, q = RNG.random(5), RNG.integers(-3, 4, 5)
    assert_same_as_numpy(fns().pair_energy, compiled("pair_energy"), x, q)


def test_bincount_with_minlength():
    labels = np.array([0, 5, 2, 2, 0, 3])
    for w in (RNG.random(6), RNG.random(6).astype(np.float32)):
        assert_same_as_numpy(fns().counts, compiled("counts"), labels, w)
    c, cw = compiled("counts")(labels, np.ones(6, np.float32))
    assert c.dtype == np.int64 and cw.dtype == np.float64


def test_bincount_errors_when_it_runs():
    with pytest.raises(ValueError, match="'list' argument must have no negative elements"):
        compiled("counts")(np.array([0, 7, -1, 2]), np.ones(4))  # NumPy checks negatives first
    with pytest.raises(np2ref.Np2RefError, match=r"NPR109.*met the value 6"):
        compiled("counts")(np.array([0, 6, 2]), np.ones(3))
    with pytest.raises(np2ref.Np2RefError, match="NPR109.*minlength="):
        compiled("counts_free")(np.array([0, 1]))


def test_histogram_matches_numpy_on_and_near_edges():
    # values exactly on NumPy's float edges, one ulp either side, out of range and at the ends:
    # XLA's reciprocal-multiplication and fused multiply-adds would move some between bins
    edges = np.concatenate([np.linspace(0.0, 1.0, 8), np.linspace(0.1, 0.9, 6), np.linspace(0, 1, 10)])
    a = np.concatenate([edges, np.nextafter(edges, 2), np.nextafter(edges, -1), [-0.5, 1.5], RNG.random(40)])
    a = a[(a == 0) | (np.abs(a) >= np.finfo(a.dtype).tiny)]  # XLA flushes subnormals to zero
    w = RNG.random(a.size)
    assert_same_as_numpy(fns().hist, compiled("hist"), a, w)
    assert_same_as_numpy(fns().hist, compiled("hist"), a.astype(np.float32), w.astype(np.float32))
    assert_same_as_numpy(fns().hist, compiled("hist"), np.full(5, 0.25), w[:5])  # min == max


def test_histogram_with_edges():
    # NumPy's searchsorted rule: each bin [e_k, e_k+1), the last one closed; values on edges,
    # out of range and NaN (never counted); edges an argument (traced) and a constant
    edges = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    a = np.concatenate([edges, np.nextafter(edges, 2), np.nextafter(edges, -1), [-0.5, 1.5, np.nan],
                        RNG.random(20)])
    a = a[~(np.abs(a) < np.finfo(a.dtype).tiny) | (a == 0)]  # XLA flushes subnormals to zero
    w = RNG.random(a.size)
    assert_same_as_numpy(fns().hist_edges, compiled("hist_edges"), a, w, edges)
    assert_same_as_numpy(fns().hist_edges, compiled("hist_edges"), a.astype(np.float32),
                         w.astype(np.float32), edges)  # float32 data against float64 edges
    ints = np.array([0, 1, 2, 3, 5, 1, 0])
    assert_same_as_numpy(fns().hist_edges, compiled("hist_edges"), ints, ints.astype(np.int32),
                         np.array([0, 1, 3, 4]))  # int32 weights: int32 counts
    with pytest.raises(ValueError, match="`bins` must increase monotonically, when an array"):
        compiled("hist_edges")(a, w, np.array([0.0, 0.5, 0.25, 1.0]))


def test_histogram_refusals():
    with pytest.raises(np2ref.Np2RefError, match="NPR109.*integer bins="):
        compiled("hist_auto")(RNG.random(4))
    with pytest.raises(ValueError, match="autodetected range"):
        compiled("hist")(np.array([0.5, np.nan, 0.25]), np.ones(3))


def test_index_helpers():
    a = RNG.random((4, 4))
    assert_same_as_numpy(fns().upper, compiled("upper"), a)
    rows, cols = np.array([2, 0]), np.array([3, 1, 1])
    assert_same_as_numpy(fns().rows_cols, compiled("rows_cols"), a, rows, cols)


def test_ndindex_loop_and_grids():
    a = RNG.random((3, 4))
    assert_same_as_numpy(fns().double_each, compiled("double_each"), a)
    assert_same_as_numpy(fns().grid, compiled("grid"), a)
