"""Explicit FTCS finite-difference solver for the 1-D heat equation.

Domain: transient conduction along a thin rod. The left end is insulated
(Neumann, implemented by mirroring ghost cells) and the right end is held at a
fixed temperature (Dirichlet, implemented by anti-symmetric ghost cells).
A few point heaters inject energy every step. Written in the style of legacy
simulation code: module constants, helpers that mutate their arguments, a
Python time loop and in-place updates of the state array.
"""
import numpy as np

ENTRY = "simulate"

NG = 2            # ghost cells on each side
T_MIN = 0.0       # physical clipping range (kelvin offsets)
T_MAX = 500.0
CFL_SAFETY = 0.45


def fill_ghosts(u, t_right):
    """Fill the ghost cells of u in place (mirror left, anti-mirror right)."""
    # Insulated left end: u[NG-1], u[NG-2], ... mirror u[NG], u[NG+1], ...
    u[NG - 1::-1] = u[NG:2 * NG]
    # Fixed-temperature right end: anti-symmetric about t_right.
    u[-NG:] = 2.0 * t_right - u[-NG - 1:-2 * NG - 1:-1]


def face_fluxes(u, flux, r):
    """flux[i] = r * (u[i+1] - u[i]) written into the preallocated flux."""
    np.subtract(u[1:], u[:-1], out=flux)
    np.multiply(flux, r, out=flux)
    return flux


def simulate(u, heater_idx, heater_power, kappa, dx, dt, steps, t_right):
    """Advance u (including ghost cells) by `steps` explicit steps in place.

    heater_idx may contain repeated cells; like the original Fortran-to-NumPy
    port this uses ``u[idx] += ...`` so a repeated heater only counts once.
    Returns (elapsed time as a 0-d array, heat content history).
    """
    n = u.shape[0]
    r = kappa * dt / (dx * dx)
    flux = np.zeros(n - 1)
    time = np.zeros(())
    history = np.zeros(steps)
    for k in range(steps):
        fill_ghosts(u, t_right)
        face_fluxes(u, flux, r)
        interior = u[NG:n - NG]
        interior += flux[NG:n - NG] - flux[NG - 1:n - NG - 1]
        u[heater_idx] += heater_power * dt
        np.clip(u, T_MIN, T_MAX, out=u)
        time += dt
        history[k] = np.sum(u[NG:n - NG]) * dx
    fill_ghosts(u, t_right)
    return time, history


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        ncell, steps = 8, 6
    else:
        ncell, steps = 2000, 4000
    length = 1.0
    dx = length / ncell
    kappa = 1.0e-2
    dt = CFL_SAFETY * dx * dx / kappa
    u = np.zeros(ncell + 2 * NG)
    u[NG:-NG] = 20.0 + 5.0 * rng.random(ncell)
    nheat = max(3, ncell // 100)
    heater_idx = rng.integers(NG, ncell + NG, size=nheat)
    heater_idx[-1] = heater_idx[0]          # deliberate duplicate heater
    heater_power = 50.0 * rng.random(nheat)
    return dict(u=u, heater_idx=heater_idx, heater_power=heater_power,
                kappa=kappa, dx=dx, dt=dt, steps=steps, t_right=10.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    t, hist = simulate(**inputs)
    u = inputs["u"]
    print(f"elapsed time     = {float(t):.6f}")
    print(f"final heat       = {hist[-1]:.6f}")
    print(f"max temperature  = {u.max():.6f}")
    print(f"left ghost       = {u[0]:.6f}")
