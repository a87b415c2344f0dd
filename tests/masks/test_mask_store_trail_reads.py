"""A masked store whose value reads columns through the same mask: `tf[m] = (FLOOR_Y -
o[m, 1]) / d[m, 1]` (a ray tracer's floor distances), `e[m] = np.sqrt(v[m, 0] ** 2 + v[m, 1] **
2)`. The store `a[m, d] = f(b[m, d])` translated (rules/mask_trail.py), and so did
`tf[m] = f(o[:, 1][m])`, but `o[m, 1]` under a plain `a[m]` was refused NPR107. NumPy's
selection `o[m, 1]` is that of the view `o[:, 1]` through m (the mask's axes first, the integer
after them), so the value is computed on the view whole (npr_mask_trail(..., like_trail=0)),
checked to have a's axes (else NPR104); a mask that may be an integer index is left refused.
Found by tests/third_party/scripts11/ray_tracer_spheres.py. Compared against NumPy: results,
their types, the arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy

FLOOR_Y = -1.0
R = np.random.default_rng(8)
O = R.normal(size=(9, 3))
D = R.normal(size=(9, 3))
Q = R.normal(size=(5, 2, 4)).round(3)


def floor_distances(o, d):
    tf = np.full(o.shape[0], np.inf)
    going_down = d[:, 1] < 0
    tf[going_down] = (FLOOR_Y - o[going_down, 1]) / d[going_down, 1]
    return tf


def speeds(v, e, vmax):
    fast = np.abs(v[:, 0]) > 0.3
    e[fast] = np.sqrt(v[fast, 0] ** 2 + v[fast, -1] ** 2) * vmax
    e[fast] += v[fast, 1]
    return e


def planes(q, w):
    m = q[:, 0, 0] > 0
    w[m] = q[m, 1] * 2.0 - q[m, 0]
    return w


def wrong_axes(q, w):
    m = q[:, 0] > 0
    w[m] = q[m, 1]  # w 2-D, q[:, 1] 1-D: NumPy pairs w's rows with the selected values
    return w


@pytest.mark.parametrize("fn, args", [
    (floor_distances, lambda: (O.copy(), D.copy())),
    (speeds, lambda: (D.copy(), np.zeros(9), 2.0)),
    (planes, lambda: (Q.copy(), np.zeros((5, 4)))),
])
def test_a_mask_store_reading_columns_through_its_mask(fn, args):
    assert_returns_as_numpy(fn, args)


def test_a_view_of_other_axes_is_refused():
    q = np.array([[1.0, 2.0], [-1.0, 3.0], [2.0, 5.0]])
    want = wrong_axes(q, np.zeros((3, 2)))
    assert want.shape == (3, 2)
    with pytest.raises(Exception) as info:
        np2ref.compile(wrong_axes, host_below=0)(q, np.zeros((3, 2)))
    assert "NPR104" in str(info.value)
