"""`np.array([f(k) for k in range(n)])` traced once, as a lax.map over the range (rules/
comprehensions.py, rt/comprehensions.py), its `k` a Python int as `range` gives it (weakly typed:
`x[k] * k` keeps float32). Before, a comprehension over a range was traced one trip at a time:
percolation's `np.array([find(parent, k) for k in range(n * n)])` at n = 40 passed the trace
budget (NPR037) in the converted script. The map runs the trips in order, so a body that writes
(find's path halving) writes as NumPy's loop does; a body giving Python values (`k * 2`) runs
as written, np.array deciding the dtype from them."""

import copy

import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def roots(parent):
    n = parent.shape[0]
    return np.array([find(parent, k) for k in range(n)])


def scaled(x):
    return np.array([x[k] * k for k in range(1, x.shape[0], 2)])


def plain(x):
    return np.array([k * 2 for k in range(x.shape[0])]) + x


def rows(A):
    return np.array([A[k, k:k + 2].sum() for k in range(A.shape[0] - 1)])
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("range_comprehensions"), "range_comprehensions_numpy")


def _same(fn, *args, **options):
    want, got = copy.deepcopy(args), copy.deepcopy(args)
    r0, r1 = fn(*want), np2ref.compile(fn, host_below=0, **options)(*got)
    assert r0.dtype == r1.dtype and r0.shape == r1.shape and np.array_equal(r0, r1)
    for a, b in zip(want, got):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_a_writing_body_maps_in_order(module):
    parent = np.array([1, 2, 3, 4, 4, 0, 6, 6, 2, 9])
    _same(module.roots, parent)


def test_mapped_not_unrolled(module):
    """500 trips in a budget of 400 traced equations: only a body traced once fits."""
    parent = np.arange(500)[::-1].copy()
    parent[250:] = np.arange(250, 500)
    _same(module.roots, parent, trace_budget=400)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16])
def test_the_count_is_a_python_int(module, dtype):
    _same(module.scaled, np.arange(1, 8).astype(dtype))


def test_python_values_run_as_written(module):
    _same(module.plain, np.ones(5, dtype=np.float32))


def test_window_sums_over_a_range(module):
    _same(module.rows, np.arange(16.0).reshape(4, 4))
