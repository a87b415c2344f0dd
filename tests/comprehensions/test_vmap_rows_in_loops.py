"""An array made from a comprehension over rows (`v = np.array([np.sum(r * 2) for r in C])`) and
then written in a loop, under `jax.vmap` of `.pure`: the lax.map's stacked rows came out batched
along axis 1, and jax 0.10.2's scan batching rule, moving a closed-over Ref's batch axis first,
crashed ("Triggering __jax_array__() during abstractification", jax-ml/jax#39288; found by `np2ref
fuzz --family out_window --seed 3`, program 70, saved as tests/regressions/fuzz_0ee269b0e5.py).
npr_comp_map now gives its rows batched along axis 0 (rt/comprehensions.py `_npr_batched_first`).
Differential: each batch member against NumPy's run on it, results, written arguments and dtypes."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_batch_members, load_module

SOURCE = '''
import numpy as np


def h3(x, y):
    f2 = lambda v: v * 2 + 1
    x[...] = f2(x)


def helper_in_loop(a, C, n):
    v0 = np.array([np.sum(r1 * 2) for r1 in C])
    for k in range(n):
        h3(v0, a)
    a[:] += v0[:3]
    return v0


def whole_store_in_loop(a, C, n):
    v = np.array([np.sum(r * 2) for r in C])
    for k in range(n):
        v[...] = v * 2 + 1
    return v


def element_store_in_loop(a, C, n):
    v = np.array([r * 0.5 for r in C])
    for k in range(1, n):
        v[k] += v[k - 1]
    a[0] = v[n - 1]
    return v


def pairs_in_while(a, C, n):
    d = np.array([[x - y for x in C] for y in C])
    k = 0
    while k < n:
        d[k, :] *= 2
        k += 1
    return d
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("vmap_rows_loops"))


def _batch(values, dtype):
    base = np.array(values, dtype=dtype)
    return np.stack([base, base[::-1] - 1, base * 2])


@pytest.mark.parametrize("name", ["helper_in_loop", "whole_store_in_loop", "element_store_in_loop",
                                  "pairs_in_while"])
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.float32])
def test_each_batch_member_is_numpys(module, name, dtype):
    fn = getattr(module, name)
    compiled = np2ref.compile(fn)
    a, C = _batch([-1, 3, 5], dtype), _batch([-5, 6, -1, 4, 4], dtype)
    with jax.enable_x64(True):
        results, finals = jax.jit(jax.vmap(lambda a, C: compiled.pure(a, C, 4)))(a, C)
    assert_batch_members(fn, [a, C], results, finals, ["a", "C"], 4)
