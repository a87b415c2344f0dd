"""Explicit 1-D heat equation with two buffers swapped each step, as lecture scripts write it.

`u, u_new = u_new, u` swaps the buffers (after an odd number of steps the caller's `u0` holds
the older field and the work array the newer), the boundary is written into `u_new` before the
interior, a Python list keeps the total heat each step (`history.append(float(u.sum()))`), and a
wall-clock timer and progress prints sit beside the hot loop.
"""
import time

import numpy as np

ENTRY = "run_heat"
ALPHA = 0.25


def set_boundaries(v, left, right):
    v[0] = left
    v[-1] = right


def run_heat(u0, work, nsteps, every):
    u = u0
    u_new = work
    history = []
    t0 = time.time()
    for step in range(nsteps):
        set_boundaries(u_new, 1.0, 0.0)
        u_new[1:-1] = u[1:-1] + ALPHA * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u, u_new = u_new, u
        history.append(float(u.sum()))
        if step % every == 0:
            print("step", step, "total", repr(history[-1]), "max", repr(u.max()))
    elapsed = time.time() - t0
    assert elapsed >= 0.0
    return u, history


def make_inputs(size="small"):
    n = 16 if size == "small" else 200
    np.random.seed(7)
    u0 = np.random.rand(n) * 0.1
    return dict(u0=u0, work=np.zeros(n), nsteps=9, every=3)


CHECKS = {"run_heat": lambda: make_inputs("small"),
          "run_heat#even": lambda: dict(make_inputs("small"), nsteps=10)}

if __name__ == "__main__":
    inputs = make_inputs("large")
    u, history = run_heat(**inputs)
    print(repr(u.sum()), repr(history[-3:]), repr(inputs["u0"].sum()), repr(inputs["work"].sum()))
