"""`if <data>: return` in a function that otherwise falls off its end (union-find's `union`).

Every return of such a function returns None; frontend/returns.py made a function one exit
only when every path ended in a `return`, so `union` was left as written and refused when
traced (NPR030). Its end is now its `return None` and no branch carries a value. Compared with
NumPy: the arrays written (parents, ranks), the result, in a lattice sweep calling it.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits


def root(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]  # path halving (a write: root's result is no view of parent)
        i = parent[i]
    return i


def union(parent, rank, a, b):
    """Union by rank; nothing to do when both are in one tree already."""
    ra, rb = root(parent, a), root(parent, b)
    if ra == rb:
        return
    if rank[ra] < rank[rb]:
        parent[ra] = rb
    else:
        parent[rb] = ra
        rank[ra] += rank[ra] == rank[rb]


def bump_unless(x, i, t):
    if x[i] > t:
        return None
    x[i] += 1.0


def label(occupied, parent, rank):
    n = occupied.shape[0]
    for i in range(n):
        for j in range(n - 1):
            if occupied[i, j] and occupied[i, j + 1]:
                union(parent, rank, i * n + j, i * n + j + 1)
        for j in range(n):
            if i + 1 < n and occupied[i, j] and occupied[i + 1, j]:
                union(parent, rank, i * n + j, i * n + j + n)
    return int(rank.max())


@pytest.mark.parametrize("seed", [0, 1])
def test_union_find_lattice(seed):
    occupied = np.random.default_rng(seed).random((4, 4)) < 0.6
    a = (np.arange(16), np.zeros(16, dtype=np.int64))
    b = (np.arange(16), np.zeros(16, dtype=np.int64))
    want = label(occupied, *a)
    got = np2ref.compile(label, host_below=0)(occupied, *b)
    assert got == want and type(got) is type(want)
    for w, g in zip(a, b):
        assert g.tobytes() == w.tobytes()


def test_return_none_spelled_out():
    for t in (0.1, 0.9):
        x, y = np.array([0.5, 0.2]), np.array([0.5, 0.2])
        assert bump_unless(x, 0, t) is None
        assert np2ref.compile(bump_unless, host_below=0)(y, 0, t) is None
        assert_numpys_bits(y, x)  # (bit for bit off a TPU)
