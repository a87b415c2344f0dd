"""Time loops of whole-slice stores (stencils: FDTD, Jacobi), whose reads of a region some store
of the same step wrote are sliced from the array that store made, not forwarded to an older
array or recomputed from the stored value (rt/peepholes.py): NumPy's values bit for bit, the
results and every mutated argument, for each form the rewrite tells apart (a read of the same
shape as the next store, an integer index read through a squeeze, a stored region read and then
stored over again, one stored array read by the next store of another)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def fdtd_2d(TMAX, ex, ey, hz, fict):
    for t in range(TMAX):
        ey[0, :] = fict[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


def jacobi_1d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])


def jacobi_2d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


def restored(steps, a, b):
    """A stored region read, then stored over again in the same step (a chain of stores)."""
    for t in range(steps):
        a[1:3] = b[1:3] * 2.0 + a[0:2]
        c = a[1:3] - 1.0
        a[1:3] += c * 0.5
        a[3:] = a[1:2] + a[3:]


def planes(steps, f, g, m):
    """Latt's bounce-back: planes read through an integer index after the stores before them."""
    for t in range(steps):
        for i in range(4):
            f[i] = np.where(m, g[3 - i], f[i])
        g += 0.5 * f
        f[1:3] -= f[0:2] * 0.25


def _args(name, rng):
    r = rng.standard_normal
    if name == "fdtd_2d":
        return 5, r((7, 9)), r((7, 9)), r((7, 9)), r(5)
    if name == "jacobi_1d":
        return 6, r(12), r(12)
    if name == "jacobi_2d":
        return 5, r((8, 9)), r((8, 9))
    if name == "restored":
        return 4, r((6, 5)), r((6, 5))
    return 3, r((4, 5, 6)), r((4, 5, 6)), rng.random((5, 6)) < 0.4


_KERNELS = {f.__name__: f for f in (fdtd_2d, jacobi_1d, jacobi_2d, restored, planes)}
_COMPILED = {}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", sorted(_KERNELS))
def test_stencil_time_loops_are_numpys_bit_for_bit(name, seed):
    fn = _KERNELS[name]
    compiled = _COMPILED.setdefault(name, np2ref.compile(fn))
    assert_same_as_numpy(fn, compiled, *_args(name, np.random.default_rng(seed)))


def test_float32_stencils_keep_their_dtype():
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((8, 9)).astype(np.float32) for _ in range(2))
    assert_same_as_numpy(jacobi_2d, _COMPILED.setdefault("jacobi_2d", np2ref.compile(jacobi_2d)), 4, a, b)
