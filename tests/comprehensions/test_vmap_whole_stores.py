"""A whole-array store into an array made from a comprehension over rows (`v = np.array([r.sum()
for r in a]); v[1:] += 1.0`), under `jax.vmap` of `.pure`: the lax.map's stacked rows come out
batched along axis 1, and jax 0.10.2's rule for `ref[...] = value` (no indexer) did not move the
value's batch axis to the Ref's ("Invalid shape for `swap`", found by `np2ref fuzz --family
comp_rows`; rt/compat.py `_npr_swap_vmap_fixed`). Differential: each batch member against NumPy's
run on it, results, written arguments and dtypes."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_batch_members, load_module

SOURCE = '''
import numpy as np


def rows_then_store(a):
    v = np.array([np.sum(r * 2) for r in a])
    v[1:] += 1.0
    return v


def rows_then_copyto(a, b):
    v = np.array([r.max() for r in a])
    np.copyto(v, -3.0)
    b[...] += v.sum()
    return v


def pairs_then_scale(a):
    d = np.array([[np.sum((x - y) ** 2) for x in a] for y in a])
    d *= 0.5
    a[:, 0] = d.sum(axis=0)
    return d
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("vmap_stores"))


def _batch(shape, dtype):
    base = np.arange(np.prod(shape), dtype=dtype).reshape(shape) * 0.25
    return np.stack([base, base[::-1] - 1.0, base * 2.0])


@pytest.mark.parametrize("name, shapes", [("rows_then_store", [(3, 4)]), ("rows_then_store", [(1, 2, 3)]),
                                          ("rows_then_copyto", [(5, 2), (2,)]), ("pairs_then_scale", [(3, 2)])])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_each_batch_member_is_numpys(module, name, shapes, dtype):
    fn = getattr(module, name)
    compiled = np2ref.compile(fn)
    batches = [_batch(s, dtype) for s in shapes]
    with jax.enable_x64(True):
        results, finals = jax.jit(jax.vmap(compiled.pure))(*batches)  # jitted: eagerly, an XLA compile an operation
    assert_batch_members(fn, batches, results, finals, ["a", "b"])
