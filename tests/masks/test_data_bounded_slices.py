"""Slices whose bounds are read from arrays through names bound in a loop (a cell list's
`order[starts[c]:ends[c]]` with `c = (cx[i] + dx) % NCELL`) are read in their masked form, as a
slice bounded by the loop variable itself is: NPR111 (TracedSlice) on main. Differential against
NumPy: results, arguments, dtypes."""

import numpy as np
import pytest

from conftest import ProgramChecks

checks = ProgramChecks("cell_lists")


def _cells(n, ncell, seed, dtype=np.int64):
    rng = np.random.default_rng(seed)
    cell = rng.integers(0, ncell, n)
    order = np.argsort(cell, kind="stable").astype(dtype)
    sorted_cells = cell[order]
    starts = np.searchsorted(sorted_cells, np.arange(ncell), side="left")
    ends = np.searchsorted(sorted_cells, np.arange(ncell), side="right")
    return order, starts, ends


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int32, np.int16])
def test_a_gather_by_a_cells_slice(wdtype):
    order, starts, ends = _cells(11, 4, 1)
    w = (np.arange(11) * 3 - 7).astype(wdtype)
    checks.same("cell_sums", order, starts, ends, w, 4)


def test_distances_to_the_neighbouring_cells():
    order, starts, ends = _cells(9, 3, 2)
    pos = np.random.default_rng(3).random((9, 2))
    checks.same("neighbour_density", pos, order, starts, ends, 3)


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_empty_cells_and_integer_results(dtype):
    order, starts, ends = _cells(6, 5, 4, dtype)  # (some of 5 cells are empty)
    assert (ends == starts).any()
    checks.same("counted", order, starts, ends, 5)

