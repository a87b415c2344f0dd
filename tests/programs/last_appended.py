"""`hist[-1]` read after `hist.append(v)` in a loop body (frontend/last_appended.py): the loop
stacks its appends (a lax loop) instead of running as Python, and prints what NumPy prints."""

import numpy as np


def printed_history(u, nsteps):
    hist = []
    for step in range(nsteps):
        u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        hist.append(float(u.sum()))
        print("step", step, hist[-1])
    return hist


def scalar_history(u, nsteps, every):
    """An np.float scalar and an int appended; the last read under an `if` and in arithmetic."""
    peaks, counts = [], []
    for step in range(nsteps):
        u *= 0.9
        peaks.append(u.max())
        counts.append(int((u > 0.5).sum()))
        if step % every == 0:
            print(step, peaks[-1], counts[-1] + 1)
        u += 0.01 * peaks[-1]
    return peaks, counts, u


def counted_last(u, nsteps):
    """`len(hist)` between the append and `hist[-1]` ends the run: not rewritten (a Python loop,
    exact as before)."""
    hist = []
    for step in range(nsteps):
        u += 1
        hist.append(int(u[0]))
        n = len(hist)
        print(hist[-1], n)
    return hist
