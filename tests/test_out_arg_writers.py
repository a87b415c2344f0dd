"""A function whose only array writes are ufuncs' `out=` is translated, not set-up code.

A leapfrog loop written `np.add(x, dt * v, out=x)` that keeps a history list was taken for a
function that "builds Python containers in a loop and writes no array" (host code: NPR021
under np2ref.compile, NumPy in a converted file): `out=` is a write, as a store is
(analysis/module.py). Compared with NumPy: the result and both written arguments.
"""

from __future__ import annotations

import numpy as np

import np2ref


def leapfrog(x, v, dt, nsteps):
    radii = []
    for step in range(nsteps):
        np.add(v, -dt * x, out=v)
        np.add(x, dt * v, out=x)
        np.clip(x, -1.2, 1.2, out=x)
        radii.append(np.sqrt(x @ x))
    return radii


def test_out_only_writer_is_translated():
    rng = np.random.default_rng(0)
    x, v = rng.random(4), rng.random(4)
    a = (x.copy(), v.copy())
    b = (x.copy(), v.copy())
    want = leapfrog(*a, 0.1, 6)
    got = np2ref.compile(leapfrog, host_below=0)(*b, 0.1, 6)
    assert [type(g) for g in got] == [type(w) for w in want]
    np.testing.assert_allclose(got, want, rtol=1e-14)
    for w, g in zip(a, b):
        np.testing.assert_allclose(g, w, rtol=1e-14)
