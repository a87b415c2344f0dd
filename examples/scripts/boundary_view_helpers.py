"""Advection-diffusion where helpers return views of the grid that the caller writes through.

`interior(u)` returns `u[1:-1]` and `ghost_left(u)` returns `u[:1]`; the step writes
`interior(u)[:] += ...` and `ghost_left(u)[...] = ...` (writes that reach `u` through the
returned views), as object-free scripts organise their boundary code.
"""
import numpy as np

ENTRY = "advect"


def interior(u):
    return u[1:-1]


def ghost_left(u):
    return u[:1]


def advect(u, c, d, nsteps):
    mass = []
    for step in range(nsteps):
        flux = c * (u[1:-1] - u[:-2]) - d * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        interior(u)[:] -= flux
        ghost_left(u)[...] = u[-2]
        u[-1] = u[1]
        mass.append(float(u[1:-1].sum()))
    print("mass drift", repr(mass[-1] - mass[0]))
    return mass


def make_inputs(size="small"):
    n = 12 if size == "small" else 120
    x = np.linspace(0.0, 1.0, n)
    return dict(u=np.exp(-50.0 * (x - 0.4) ** 2), c=0.3, d=0.1, nsteps=10)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mass = advect(**inputs)
    print(repr(mass[::3]), repr(inputs["u"].sum()))
