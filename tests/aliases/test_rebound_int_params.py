"""A parameter that holds a Python int and is later rebound to a read of a written array:
union-find's path compression `nxt = parent[i]; parent[i] = root; i = nxt`. `nxt`, bound once,
may be a view of `parent` (a row, were parent 2-D), so `i` was taken for a Ref name and its
every read loaded as `i[...]`: before the rebinding it holds the caller's int, and
np2ref.compile stopped with a raw TypeError ('int' object is not subscriptable). Such a
parameter is read with npr_load, which passes a non-Ref through (rewrite/rules/names.py).
Found by tests/third_party/scripts10/components_unionfind.py. Compared against NumPy: results,
their types and the arrays after the call (a 2-D parent, where `nxt` is a view, too).
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy


def relink(parent, i, root):
    nxt = parent[i]
    parent[i] = root
    i = nxt
    return parent[i]


def compress_hops(parent, i, root, hops):
    for _ in range(hops):
        nxt = parent[i]
        parent[i] = root
        i = nxt
    return i, parent


def last_hop(parent, i, root):
    for _ in range(2):
        nxt = parent[i]
        parent[i] = root
        i = nxt
    return i


def shifted(x, k, scale):
    y = x[k]
    x[k] = scale * y
    k = y
    return k * scale


@pytest.mark.parametrize("fn, args", [
    (relink, lambda: (np.array([0, 0, 1, 2, 3, 3], dtype=np.int32), 5, 0)),
    (relink, lambda: (np.array([[0, 1], [1, 0], [1, 1]]), 2, 0)),
    (compress_hops, lambda: (np.array([0, 0, 1, 2, 3, 4], dtype=np.int32), 5, 0, 3)),
    (compress_hops, lambda: (np.array([0, 0, 1, 2]), np.int64(3), 0, 2)),
    (last_hop, lambda: (np.array([0, 0, 1, 2, 3, 3], dtype=np.int32), 5, 0)),
    (shifted, lambda: (np.array([2.5, 1.0, 0.5]), 1, 3.0)),
], ids=["relink", "relink-2d", "compress", "compress-np-int", "last-hop", "float"])
def test_a_python_int_parameter_rebound_to_an_array_read(fn, args):
    assert_returns_as_numpy(fn, args)
