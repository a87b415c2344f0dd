"""Guarded appends (`if step % every == 0: snaps.append(u.copy())`, stacked by a lax loop) under
jax.vmap of `.pure`: the branch writes the list's buffer, which npr_append finds through the trip's
state rather than a closure, so the branch's Ref lifting did not see it and JAX raised "State
effect not supported in vmap-of-cond" (found by fuzz8's guarded_append family; on main every
program of that form failed its vmap check). The buffers are now lifted with the branch's other
Refs (rt/refs.py _npr_append_bufs). Each batch member against NumPy's run on it: the result (its
rows, dtype and shape) and the written argument; and reverse mode against central differences."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def snapshots(u, n, every):
    snaps = []
    for step in range(n):
        u[1:] += u[:-1] * 0.5
        if step % every == 0:
            snaps.append(u.copy())
    snaps = np.array(snaps)
    return snaps


def sums(u, n, every):
    e = []
    for step in range(n):
        u *= 0.5
        if step % every == 0 or step == n - 1:
            e.append(float(u.sum()))
    return np.asarray(e)


def pairs(u, n, every):
    got = []
    for step in range(n):
        u[0] -= u[-1] * 0.25
        if step % every == 1:
            got.append((u.sum(), u[1:].copy()))
    return np.stack([p[1] for p in got]), np.array([p[0] for p in got])
'''

U0 = np.array([1.0, -2.0, 0.5, 0.25])
BATCH = np.stack([U0, U0 * -1.5 + 0.25, U0[::-1].copy()])


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("guarded_batched"))


@pytest.mark.parametrize("name", ["snapshots", "sums", "pairs"])
def test_pure_under_vmap_is_numpys_run_per_member(module, name):
    fn = getattr(module, name)
    c = np2ref.compile(fn)
    with jax.enable_x64(True):
        results, finals = jax.jit(jax.vmap(lambda b: c.pure(b, 5, 2)))(jnp.asarray(BATCH))
    for i, row in enumerate(BATCH):
        row = row.copy()
        want = fn(row, 5, 2)
        for w, g in zip(want if isinstance(want, tuple) else (want,), results if isinstance(results, tuple)
                        else (results,)):
            assert np.asarray(g[i]).dtype == w.dtype and np.allclose(np.asarray(g[i]), w, rtol=1e-12)
        assert np.allclose(np.asarray(finals["u"][i]), row, rtol=1e-12)


def test_pure_under_grad_is_the_central_differences(module):
    c = np2ref.compile(module.snapshots)
    with jax.enable_x64(True):
        g = np.asarray(jax.jit(jax.grad(lambda u: (c.pure(u, 5, 2)[0] ** 2).sum()))(jnp.asarray(U0)))
    h = 1e-6
    fd = [((module.snapshots(U0 + h * e, 5, 2) ** 2).sum() - (module.snapshots(U0 - h * e, 5, 2) ** 2).sum()) / (2 * h)
          for e in np.eye(4)]
    assert np.allclose(g, fd, rtol=1e-6)
