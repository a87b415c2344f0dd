"""First-order upwind finite-volume scheme for 1-D linear advection
q_t + (a(x) q)_x = 0 on a periodic domain.

Domain: transport of a passive tracer (e.g. a pollutant concentration) by a
prescribed, spatially varying face velocity (leftward flow; the upwind
selection is still evaluated for both signs). Two equivalent implementations are
advanced side by side, as in the original verification script: one stores
ghost cells that are refilled periodically, the other uses np.roll. A simple
global mass fixer and a positivity clip are applied every step.
"""
import numpy as np

ENTRY = "simulate"

NG = 1          # ghost cells per side for the ghost-cell implementation
Q_MIN = 0.0
Q_MAX = 10.0    # safety clip, well above the compressed tracer peak


def fill_ghosts(q):
    """Periodic ghost cells, in place; returns its argument."""
    q[:NG] = q[-2 * NG:-NG]
    q[-NG:] = q[NG:2 * NG]
    return q


def upwind_fluxes(q, vel, flux):
    """Upwind flux at every face between consecutive cells of q (with ghosts)."""
    n = q.shape[0]
    ql = q[NG - 1:n - NG]
    qr = q[NG:n - NG + 1]
    flux[:] = np.where(vel >= 0.0, vel * ql, vel * qr)


def step_ghost(q, vel, flux, dtdx):
    fill_ghosts(q)
    upwind_fluxes(q, vel, flux)
    q[NG:-NG] -= dtdx * (flux[1:] - flux[:-1])


def step_roll(p, vel, dtdx):
    vr = vel[1:]                     # velocity at face i+1/2
    f_right = np.where(vr >= 0.0, vr * p, vr * np.roll(p, -1))
    f_left = np.roll(f_right, 1)
    p -= dtdx * (f_right - f_left)


def simulate(q, p, vel, dx, dt, steps):
    """Advance q (with ghosts) and p (without) in place.

    Returns (mass history of q as an array, final mass as a 0-d array,
    max difference between the two implementations).
    """
    nc = p.shape[0]
    dtdx = dt / dx
    flux = np.zeros(nc + 1)
    mass0 = np.sum(p) * dx
    history = np.zeros(steps)
    for k in range(steps):
        step_ghost(q, vel, flux, dtdx)
        np.clip(q, Q_MIN, Q_MAX, out=q)
        step_roll(p, vel, dtdx)
        np.clip(p, Q_MIN, Q_MAX, out=p)
        p /= np.sum(p) * dx / mass0          # global mass fixer
        history[k] = np.sum(q[NG:-NG]) * dx
    fill_ghosts(q)
    mass = np.zeros(())
    mass += np.sum(p) * dx
    diff = np.max(np.abs(q[NG:-NG] - p))
    return history, mass, diff


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        nc, steps = 12, 10
    else:
        nc, steps = 5000, 3000
    length = 1.0
    dx = length / nc
    xf = np.linspace(0.0, length, nc + 1)
    vel = -(0.8 + 0.3 * np.cos(2.0 * np.pi * xf) + 0.05 * rng.random(nc + 1))
    vel[-1] = vel[0]                 # periodic face velocity
    dt = 0.8 * dx / np.abs(vel).max()
    xc = (np.arange(nc) + 0.5) * dx
    p = np.where(np.abs(xc - 0.3) < 0.15, 0.9, 0.1) + 0.05 * rng.random(nc)
    q = np.zeros(nc + 2 * NG)
    q[NG:-NG] = p
    return dict(q=q, p=p.copy(), vel=vel, dx=dx, dt=dt, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    hist, mass, diff = simulate(**inputs)
    print(f"mass (ghost)  = {hist[-1]:.6f}")
    print(f"mass (roll)   = {float(mass):.6f}")
    print(f"max |q - p|   = {diff:.6e}")
    print(f"max q         = {inputs['q'].max():.6f}")
