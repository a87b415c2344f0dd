"""Asserts in a time loop (tests/python/test_assert_messages.py): a message that formats the
step and array data, and the rewrite NPR030's hint gives for it."""
import numpy as np


def drift_checked(x, v, dt, nsteps):
    e0 = 0.5 * np.sum(v**2 + x**2)
    for step in range(nsteps):
        v -= 0.5 * dt * x
        x += dt * v
        v -= 0.5 * dt * x
        e = 0.5 * np.sum(v**2 + x**2)
        assert abs(e - e0) < 1e-2 * e0, f"energy drift at step {step}: {e}"
    return x, v


def drift_checked_hinted(x, v, dt, nsteps):
    e0 = 0.5 * np.sum(v**2 + x**2)
    drift = 0.0
    for step in range(nsteps):
        v -= 0.5 * dt * x
        x += dt * v
        v -= 0.5 * dt * x
        e = 0.5 * np.sum(v**2 + x**2)
        drift = max(drift, abs(e - e0))
        assert abs(e - e0) < 1e-2 * e0, "energy drift"
    return x, v, drift


def positive_checked(c, nsteps, k):
    for step in range(nsteps):
        c -= k * c
        assert np.all(c >= 0.2), f"below 0.2: {c.min()}"
    return c
