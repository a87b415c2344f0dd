"""Viscous Burgers' equation u_t + u u_x = nu u_xx on a periodic domain.

Domain: 1-D model of nonlinear wave steepening (the classic "saw-tooth"
test: an initial profile with a jump that the viscosity smooths). First-order
upwind differences for the convective term, chosen point by point from the
sign of u (np.where), second-order central differences for the diffusion
term, forward Euler in time. The previous level is kept in a copy (`un`),
exactly as in the lecture-notes code this style comes from; the periodic
wrap is written out by hand at both ends.
"""
import numpy as np

ENTRY = "solve"

NU = 0.07


def initial_sawtooth(u, x):
    """u(x, 0) from the analytic saw-tooth solution, written into u."""
    phi = (np.exp(-x ** 2 / (4 * NU)) + np.exp(-(x - 2 * np.pi) ** 2 / (4 * NU)))
    dphi = (-x / (2 * NU) * np.exp(-x ** 2 / (4 * NU))
            - (x - 2 * np.pi) / (2 * NU) * np.exp(-(x - 2 * np.pi) ** 2 / (4 * NU)))
    u[:] = -2 * NU * dphi / phi + 4


def step(u, un, dt, dx):
    un[:] = u
    back = un[1:-1] - un[:-2]
    fwd = un[2:] - un[1:-1]
    grad = np.where(un[1:-1] > 0, back, fwd)
    u[1:-1] = (un[1:-1] - un[1:-1] * dt / dx * grad
               + NU * dt / dx ** 2 * (un[2:] - 2 * un[1:-1] + un[:-2]))
    # periodic ends: the last point is the first point
    u[0] = (un[0] - un[0] * dt / dx * (un[0] - un[-2])
            + NU * dt / dx ** 2 * (un[1] - 2 * un[0] + un[-2]))
    u[-1] = u[0]


def solve(u, x, nt, dt):
    """Set u from x, then advance nt steps in place; return the integral of
    u per step (the non-conservative upwind form lets it drift)."""
    dx = x[1] - x[0]
    un = np.empty_like(u)
    initial_sawtooth(u, x)
    mass = np.zeros(nt)
    for n in range(nt):
        step(u, un, dt, dx)
        mass[n] = np.sum(u[:-1]) * dx
    return mass


def make_inputs(size="small"):
    nx, nt = (21, 12) if size == "small" else (2001, 4000)
    x = np.linspace(0, 2 * np.pi, nx)
    dx = x[1] - x[0]
    return dict(u=np.zeros(nx), x=x, nt=nt, dt=dx * NU)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mass = solve(**inputs)
    print(f"mass start = {mass[0]:.6f}")
    print(f"mass end   = {mass[-1]:.6f}")
    print(f"max u      = {inputs['u'].max():.6f}")
