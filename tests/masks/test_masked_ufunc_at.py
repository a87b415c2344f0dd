"""`np.<ufunc>.at(a, idx[mask], v)`: a masked index array (its length is data) against NumPy.

Binning code drops what falls outside the bins with a mask on the bin index,
`np.add.at(counts, idx[inside], 1)`; the selection's length is data, which jit cannot hold
(NPR107 before). rules/ufunc_at.py takes idx whole and rt/masks.npr_ufunc_at_masked sends the
entries the mask leaves out to index 0 with the ufunc's identity (-0.0 for a float add: -0.0
stays -0.0). Compared: the arrays written, bit for bit, and dtypes; IndexError for a selected
index out of range, none for an unselected one.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, on_tpu

NB = 6


def binned(e, lo, hi):
    counts = np.zeros(NB, dtype=np.int64)
    energy = np.zeros(NB)
    low = np.full(NB, np.inf)
    idx = np.floor((e - lo) / (hi - lo) * NB).astype(np.int64)
    inside = (idx >= 0) & (idx < NB)
    np.add.at(counts, idx[inside], 1)
    np.add.at(energy, idx[inside], e[inside] * 2.0)
    np.subtract.at(energy, idx[inside], 0.25)
    np.minimum.at(low, idx[inside], e[inside])
    return counts, energy, low


def accumulate_steps(e, weights, nsteps):
    """In a loop, float32 bins (float64 values cast back one at a time) and 2-d rows."""
    hist = np.zeros(NB, dtype=np.float32)
    rows = np.zeros((NB, 2))
    for step in range(nsteps):
        e = e * 1.1
        idx = (e * 2).astype(np.int64)
        ok = idx < NB
        np.add.at(hist, idx[ok], e[ok])
        np.add.at(rows, idx[ok], weights[ok])
        np.multiply.at(rows, idx[ok], 1.5)
    return hist, rows


def signed_zero(z, idx, m):
    np.add.at(z, idx[m], -0.0)
    np.add.at(z, idx[m], 0)  # an int: computed in float64, where the identity is -0.0 too
    np.maximum.at(z, idx[m], 1)
    return z


def by_index(a, idx, sel, v):
    """`sel` is a mask or an integer index array, as the caller passes it."""
    np.add.at(a, idx[sel], v)
    return a


BINNED = np2ref.compile(binned, host_below=0)
STEPS = np2ref.compile(accumulate_steps, host_below=0)
BY_INDEX = np2ref.compile(by_index, host_below=0)


def same(want, got):
    for w, g in zip(want, got):
        if on_tpu():  # (a TPU's float64 is a float32 pair: docs/tpu.md)
            assert_numpys_bits(g, w)
        else:
            assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes(), (w, g)


@pytest.mark.parametrize("seed", [0, 1])
def test_binned_counts_and_values(seed):
    e = np.random.default_rng(seed).exponential(1.0, 40)
    e[:4] = [-0.5, 3.0, 0.0, 2.999]
    same(binned(e, 0.0, 3.0), BINNED(e, 0.0, 3.0))


def test_in_a_loop_float32_and_rows():
    rng = np.random.default_rng(3)
    e, w = rng.random(30) * 3, rng.random((30, 2))
    same(accumulate_steps(e, w, 4), STEPS(e, w, 4))


@pytest.mark.skipif(on_tpu(), reason="a TPU holds no -0.0 (docs/tpu.md)")
def test_signed_zero_kept():
    z = np.array([-0.0, 0.0, -0.0, -np.inf])
    idx, m = np.array([1, 7, 1, -9]), np.array([True, False, True, False])
    want, got = signed_zero(z.copy(), idx, m), np2ref.compile(signed_zero, host_below=0)(z.copy(), idx, m)
    assert got.tobytes() == want.tobytes()


def test_selected_out_of_range_raises_unselected_does_not():
    a, idx = np.zeros(4), np.array([0, 9, 3, -7])
    with pytest.raises(IndexError):
        by_index(a.copy(), idx, np.array([True, True, False, False]), 1.0)
    with pytest.raises(IndexError):
        BY_INDEX(a.copy(), idx, np.array([True, True, False, False]), 1.0)
    m = np.array([True, False, True, False])
    same([by_index(a.copy(), idx, m, 2.0)], [BY_INDEX(a.copy(), idx, m, 2.0)])


def test_integer_index_passed_for_the_mask():
    a, idx = np.zeros(5), np.array([4, 1, 1, 0])
    sel = np.array([1, 2, 2])
    same([by_index(a.copy(), idx, sel, 1.5)], [BY_INDEX(a.copy(), idx, sel, 1.5)])
