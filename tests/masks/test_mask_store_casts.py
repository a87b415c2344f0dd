"""A masked store whose value casts the masked reads: `fit[over] = -(total_w[over] -
cap).astype(np.float64)` (a genetic algorithm's penalty), `q[m] = (x[m] * 255).astype(np.uint8)`.
The cast is elementwise, so computing it on the whole arrays and masking after equals NumPy's
masked computation; it was refused NPR107 (a data-sized read), as `astype` and NumPy's scalar
types (`np.float32(3.0)`) were no elementwise calls to the mask store's planning
(rules/mask_values._elementwise). Float -> integer casts keep
NumPy's (npr_astype); a NaN or out-of-range value in an unselected position is cast and dropped.
Found by tests/third_party/scripts12/genetic_knapsack.py. Compared against NumPy: results, their
types, the arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy

R = np.random.default_rng(12)
POP = R.integers(0, 2, size=(9, 6)).astype(np.int8)
WEIGHTS = R.integers(3, 20, size=6)
X = R.normal(size=11) * 200.0
X[[2, 7]] = np.nan


def penalty(pop, weights, cap):
    total_w = pop @ weights
    fit = total_w.astype(np.float64)
    over = total_w > cap
    fit[over] = -(total_w[over] - cap).astype(np.float64)
    return fit


def to_bytes(x, q):
    m = np.abs(x) < 100.0
    q[m] = (x[m] + 100.0).astype(np.uint8)
    q[~m] = np.abs(x[~m] * 0.0).astype("int64") % 7  # NaN's cast: NumPy's INT64_MIN
    return q


def float32_scale(x, out):
    m = x > 0
    out[m] *= x[m].astype(np.float32) / np.float32(3.0)
    return out


@pytest.mark.parametrize("fn, args", [
    (penalty, lambda: (POP.copy(), WEIGHTS.copy(), 25)),
    (to_bytes, lambda: (X.copy(), np.zeros(11, dtype=np.uint8))),
    (float32_scale, lambda: (X.copy(), np.ones(11, dtype=np.float32))),
])
def test_a_mask_store_casting_its_masked_reads(fn, args):
    assert_returns_as_numpy(fn, args)


def keyword_cast(x, out):
    m = x > 0
    out[m] = x[m].astype(np.int64, copy=False)
    return out


def test_a_cast_with_keywords_stays_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR107"):
        np2ref.compile(keyword_cast)(X.copy(), np.zeros(11, dtype=np.int64))
