"""Loops whose trips do per-trip work that reads no carried value (tests/loops/test_loop_fission.py):
np2ref does that work for all trips before the loop (np2ref/rt/fission.py)."""

import numpy as np


def diagonal_tanh(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def forced_oscillator(u, v, w, dt, steps):
    """A time loop whose forcing term depends only on the step number."""
    for t in range(steps):
        v += dt * (np.sin(w * t * dt) - u)
        u += dt * v
    return u.sum()


def backwards_weights(x):
    s = 0.0
    for i in range(x.shape[0] - 1, -1, -1):
        s = s * 0.5 + np.exp(-x[i] / (i + 1.0))
    return s


def carried_only(x):
    s = 1.0
    for i in range(x.shape[0]):
        s = np.tanh(s + x[i])  # every operation reads the carry: nothing to do before the loop
    return s


def rows_then_sum(a):
    total = np.zeros(a.shape[1])
    for i in range(a.shape[0]):
        total += np.sqrt(np.abs(a[i])) / (1.0 + i)
    return total


def cells_counted(x, h):
    """A quotient that decides (floor): XLA must not make `x[i] / h` a product by 1 / h once
    the divisions of all trips are one array division."""
    count = 0.0
    for i in range(x.shape[0]):
        count = count * 2.0 + np.floor(x[i] / h)
    return count


def _running_weights(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.exp(-x[i]) * (i + 1.0)  # x: a Ref here (the caller writes it), only loaded in the loop
        y[i] = s


def loads_of_a_read_only_ref(x, y):
    x *= 0.5
    _running_weights(x, y)
    return y[-1]


def loads_of_a_written_ref(x):
    s = 0.0
    for i in range(1, x.shape[0]):
        s += np.sqrt(x[i - 1] + 1.0)  # x[i - 1] was written by the trip before: stays in the loop
        x[i] = s
    return s
