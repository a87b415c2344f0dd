"""Reads through NumPy's `.flat`: `t.flat[k]` (an event-driven simulation's earliest event,
`tw.flat[np.argmin(tw)]`), a slice or an index array of it, `for v in t.flat`. JAX arrays have
no `.flat`, and np2ref passed the attribute through: np2ref.compile and the converted script
stopped with JAX's raw NotImplementedError. A flatiter read is a copy of the flattened array's
elements, so `x.flat` indexed or iterated is `npr_flat(x)`, jnp.ravel of the loaded value
(rewrite/rules/names.py, rt/views.npr_flat); NumPy's IndexError out of range. `.flat` kept as an
object (`f = t.flat`, a live iterator) is refused (NPR004), writes through it as before (NPR205).
Found by tests/third_party/scripts10/hard_disks_events.py. Compared against NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy


def earliest(t):
    i = np.argmin(t)
    return t.flat[i], i


def after_write(t):
    t *= 2.0
    t[0, 1] = -1.0
    return t.flat[np.argmin(t)] + t.flat[-1]


def pieces(t, idx):
    return t.flat[1:5] * 2, t.flat[idx], t.flat[::-2]


def iterated(t):
    s = 0.0
    for v in t.flat:
        s = s * 0.5 + v
    return s


def at(t, k):
    return t.flat[k]


def kept(t):
    f = t.flat
    return f[1]


def _grid():
    return np.array([[3.0, 1.0, 4.0], [1.5, 0.5, 9.0]])


@pytest.mark.parametrize("fn, args", [
    (earliest, lambda: (_grid(),)),
    (after_write, lambda: (_grid(),)),
    (pieces, lambda: (_grid(), np.array([[0, 5], [2, -2]]))),
    (iterated, lambda: (_grid().astype(np.float32),)),
    (at, lambda: (np.arange(12).reshape(2, 3, 2), 7)),
], ids=["earliest", "after-write", "pieces", "iterated", "3d"])
def test_a_flat_read_is_numpys(fn, args):
    assert_returns_as_numpy(fn, args)


@pytest.mark.parametrize("k", [6, -7])
def test_a_flat_read_out_of_range_raises_numpys_index_error(k):
    with pytest.raises(IndexError):
        at(_grid(), k)
    with pytest.raises(IndexError):
        np2ref.compile(at, host_below=0)(_grid(), k)


def test_a_flatiter_kept_as_an_object_is_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(kept, host_below=0)(_grid())
    assert "NPR004" in {d.code for d in info.value.diagnostics}
