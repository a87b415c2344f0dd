"""A lane's slot with whole axes before the loop variable keeps them (rewrite/lanes.py,
_whole_first): `out[:, i, 0]` in the lanes of `for i` is `slot[:, 0]`. It was written `slot[0]`,
which wrote out[0, i, :] wherever the shapes let the store trace (a silent wrong answer), and an
inner loop's slot `(out, (npr_whole, i, npr_lane))` kept the outer loop from being lanes at all
(the CNN forward pass of benchmarks/suite.py: a lax loop of 26 trips per convolution)."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import np2ref
from conftest import ROOT, assert_same_as_numpy, program

P = program("lane_whole_axes")
sys.path.insert(0, str(ROOT / "benchmarks"))
import suite_kernels  # noqa: E402  (conv_relu_at: a tutorial's convolution, one output position at a time)

P.conv_at = suite_kernels.conv_relu_at
RNG = np.random.default_rng(38)


def _vectorised(compiled):
    lines = [line for line in compiled.explain().splitlines() if "`for " in line]
    return bool(lines) and all("vectorised: npr_vfor" in line for line in lines), lines


CASES = {
    # the shapes where the old `slot[0]` traced: out[0, i, :] (2 elements) took x[:, i] (2)
    "column_into_plane": [(np.zeros((2, 4, 2)), RNG.standard_normal((2, 4))),
                          (np.zeros((3, 5, 4)), RNG.standard_normal((3, 5)))],
    "scalar_then_whole": [(np.zeros((2, 3, 4, 3)), RNG.standard_normal((3, 4))),
                          (np.zeros((3, 2, 2, 2)), RNG.standard_normal((2, 2)))],
    "conv_at": [(RNG.standard_normal((2, 7, 6)), RNG.standard_normal((3, 2, 3, 3)), RNG.standard_normal(3))],
    "rows_of_blocks": [(np.zeros((3, 4, 4, 2)), RNG.standard_normal((3, 4)))],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_whole_axis_slots_are_lanes_and_numpys(name):
    fn = getattr(P, name)
    compiled = np2ref.compile(fn, host_below=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        for args in CASES[name]:
            assert_same_as_numpy(fn, compiled, *args)
    ok, lines = _vectorised(compiled)
    assert ok, lines


def test_the_lanes_index_the_slot_behind_its_whole_axes():
    source = np2ref.compile(P.column_into_plane).source
    assert "npr_at(_out_at_i)[:, 0] = " in source
    nested = np2ref.compile(P.conv_at).source
    assert "(_out_at_i, (npr_whole, npr_lane))" in nested  # the inner loop's slot inside the outer one's
