"""An early `return` under a data-dependent `if` in a function that returns nothing (union-find's
`if ra == rb: return`, then writes, then falls off its end) is one exit (frontend/returns.py):
every path gives None, so the statements after the `if` run in its other branch and the `if`
lowers to a lax.cond. Before, such a function was left as written (a path without a `return`)
and refused when traced (NPR030). A function that returns a value on one path and falls off
the end on another is still left as written."""

import copy

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, load_module

SOURCE = '''
import numpy as np


def find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def union(parent, size, a, b):
    ra = find(parent, a)
    rb = find(parent, b)
    if ra == rb:
        return
    if size[ra] < size[rb]:
        ra, rb = rb, ra
    parent[rb] = ra
    size[ra] += size[rb]


def label(occupied, parent, size):
    n = occupied.shape[0]
    for r in range(n):
        for c in range(n):
            if occupied[r, c]:
                k = r * n + c
                if c > 0 and occupied[r, c - 1]:
                    union(parent, size, k, k - 1)
                if r > 0 and occupied[r - 1, c]:
                    union(parent, size, k, k - n)
    return size.max()


def clip_once(x, lo):
    for i in range(x.shape[0]):
        if x[i] < lo:
            x[i] = lo
            return None
        x[i] += 1.0


def damp(x, t):
    if x.sum() > t:
        x *= 0.5
        return
    elif x.max() > t:
        x -= t
        return None
    x += 1.0


def halve(x, t):
    if x.sum() > t:
        return x * 0.5
    x += 1.0
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("none_returns"), "none_returns_numpy")


def _same(fn, *args):
    """fn and np2ref.compile(fn) on copies of args: the result and every argument, dtypes too."""
    want, got = copy.deepcopy(args), copy.deepcopy(args)
    r0, r1 = fn(*want), np2ref.compile(fn, host_below=0)(*got)
    assert (r0 is None) == (r1 is None)
    if r0 is not None:
        assert_numpys_bits(r1, r0)  # (on a TPU: the float32 pair's 1e-13, docs/tpu.md)
    for a, b in zip(want, got):
        if isinstance(a, np.ndarray):
            assert_numpys_bits(b, a)
    return want


@pytest.mark.parametrize("seed", [0, 1])
def test_union_find_labels_as_numpy(module, seed):
    rng = np.random.default_rng(seed)
    occupied = rng.random((5, 5)) < 0.6
    parent, size = np.arange(25), np.ones(25, dtype=np.int64)
    want = _same(module.label, occupied, parent, size)
    assert want[2].max() > 1  # some union was made


def test_union_on_its_own_both_ways(module):
    parent, size = np.array([0, 0, 2, 2, 4]), np.array([2, 1, 2, 1, 1])
    _same(module.union, parent, size, 1, 3)  # different roots: linked
    _same(module.union, parent, size, 0, 1)  # one root: the early return


@pytest.mark.parametrize("x", [np.array([3.0, 4.0]), np.array([0.5, 3.0]), np.array([0.1, 0.2])])
def test_elif_returns_and_a_fall_through(module, x):
    _same(module.damp, x, 2.5)


def test_a_return_in_a_loop_is_still_a_break(module):
    _same(module.clip_once, np.array([2.0, 0.5, -1.0]), 1.0)


def test_a_value_on_one_path_none_on_another_is_left_as_written():
    result = np2ref.convert_source(SOURCE)
    halve = result.code.split("def halve")[1].split("\n# np2ref")[0]
    assert "_return_" not in halve and "return npr_load(x) * 0.5" in halve  # as written
    union = result.code.split("def union")[1].split("\ndef ")[0]
    assert "npr_if" in union and "_return_" not in union  # one exit, no variable for None
