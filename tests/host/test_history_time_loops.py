"""Time loops that keep a history list are translated, not taken for set-up builders.

A function that "builds Python containers in a loop and writes no array" stays host code
(NPR021 under np2ref.compile, NumPy in a converted file). Two time loops were taken for one:
a leapfrog written `np.add(x, dt * v, out=x)` (`out=` is a write, as a store is:
analysis/module.py) and a compartment model that rebinds its state from itself,
`S, I, R = S - dS, I + dS - dR, R + dR` (a carried value, as `x op= v` is:
analysis/containers.py). Compared with NumPy: the results, their types and written arguments.
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


def sir(S, I, beta, gamma, days):
    R = np.zeros_like(S)
    peak = []
    for day in range(days):
        dS = beta * S * I
        dR = gamma * I
        S, I, R = S - dS, I + dS - dR, R + dR
        peak.append(float(I.max()))
    return S, I, R, peak


def test_rebinding_time_loop_is_translated():
    S, I = np.full(3, 0.99), np.array([0.01, 0.0, 0.02])
    want = sir(S, I, 0.3, 0.1, 8)
    got = np2ref.compile(sir, host_below=0)(S, I, 0.3, 0.1, 8)
    for w, g in zip(want[:3], got[:3]):
        np.testing.assert_allclose(g, w, rtol=1e-14)
    assert [type(g) for g in got[3]] == [float] * 8
    np.testing.assert_allclose(got[3], want[3], rtol=1e-14)
