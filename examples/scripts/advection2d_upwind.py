"""Explicit 2-D advection of a scalar by a rotating velocity field, first-order upwind.

The one-sided differences are chosen per cell with `np.where(u > 0, backward, forward)` on
shifted views of the interior; boundaries are zero-gradient, refreshed by slice assignment
from the adjacent row and column; the field is swapped with a work array (`c, cn = cn, c`)
every step, so from the second step on the work array written is the caller's own `c0`; the
final field is copied back at the end (`c0[...] = c`). Mass and max printed every few steps.
"""
import numpy as np

ENTRY = "advect"


def velocity(n):
    x = np.linspace(-1.0, 1.0, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    return -Y, X


def advect(c0, dt, nsteps):
    n = c0.shape[0]
    h = 2.0 / (n - 1)
    u, v = velocity(n)
    c = c0
    cn = np.empty_like(c0)
    for step in range(nsteps):
        ui, vi = u[1:-1, 1:-1], v[1:-1, 1:-1]
        cx = np.where(ui > 0, c[1:-1, 1:-1] - c[:-2, 1:-1], c[2:, 1:-1] - c[1:-1, 1:-1])
        cy = np.where(vi > 0, c[1:-1, 1:-1] - c[1:-1, :-2], c[1:-1, 2:] - c[1:-1, 1:-1])
        cn[1:-1, 1:-1] = c[1:-1, 1:-1] - dt / h * (ui * cx + vi * cy)
        cn[0, :] = cn[1, :]
        cn[-1, :] = cn[-2, :]
        cn[:, 0] = cn[:, 1]
        cn[:, -1] = cn[:, -2]
        c, cn = cn, c
        if step % 4 == 0:
            print(step, repr(float(c.sum() * h * h)), repr(float(c.max())))
    c0[...] = c
    return c.sum() * h * h


def make_inputs(size="small"):
    n = 12 if size == "small" else 64
    x = np.linspace(-1.0, 1.0, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    c0 = np.exp(-((X - 0.4) ** 2 + Y ** 2) / 0.02)
    return dict(c0=c0, dt=0.01, nsteps=9)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mass = advect(**inputs)
    print(repr(mass), repr(inputs["c0"].max()), repr(inputs["c0"][25, 30:33].tolist()))
