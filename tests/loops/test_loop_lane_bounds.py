"""Index checks in lanes (rt/bounds.py _npr_lane_inside): a loop made lanes (rt/vectorise.py)
that reads `A[i - 1]` is proved in range from the loop's range when the call checks indices
(np2ref.compile with NumPy arrays); the check, recorded under vmap, failed to trace before, and
the loop ran as a lax loop. An index that does leave the axis on one of NumPy's iterations is
still NumPy's IndexError."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy
from test_loop_vectorise import stencil


def shifted_past(A, B):
    n = A.shape[0]
    for i in range(1, n):
        B[i] = A[i - 1] + A[i + 1]   # i + 1 == n on the last iteration


def test_shifted_reads_in_lanes_are_proved_and_stay_lanes():
    a, b = np.random.default_rng(0).standard_normal((2, 14))
    compiled = np2ref.compile(stencil)  # here, not at collection (each xdist worker collects every module)
    _, _, lanes = compiled._traced_for_route((a, b, 3))
    assert sorted(t for t, _ in lanes) == [3 * 12, 3 * 12], lanes  # both sweeps, not loops
    assert_same_as_numpy(stencil, compiled, a, b, 3)


def test_an_index_past_the_axis_on_numpys_last_iteration_raises_numpys_error():
    a, b = np.arange(6.0), np.zeros(6)
    with pytest.raises(IndexError):
        shifted_past(a.copy(), b.copy())
    with pytest.raises(IndexError):
        np2ref.compile(shifted_past)(a.copy(), b.copy())
