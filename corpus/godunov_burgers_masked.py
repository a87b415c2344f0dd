"""Inviscid Burgers equation by Godunov's method, the exact Riemann flux written with masks.

Domain: finite volumes for u_t + (u^2/2)_x = 0 with outflow (copied ghost) boundaries. The
flux at each face takes the shock or the rarefaction branch with boolean-mask stores into a
preallocated array (`F[shock] = np.where(s[shock] > 0, ...)`), the way textbook scripts write
it; the time step comes from the CFL condition on the current data (`max(np.max(np.abs(u)),
1e-12)`), so the loop is a `while t < tend` whose trip count depends on the solution, with the
last step cut to land on tend. Pattern from public finite-volume scripts (docs/scripts.md).
"""
import numpy as np

ENTRY = "advance"


def godunov_flux(uL, uR):
    F = np.zeros_like(uL)
    fL = 0.5 * uL ** 2
    fR = 0.5 * uR ** 2
    shock = uL > uR
    s = 0.5 * (uL + uR)
    F[shock] = np.where(s[shock] > 0, fL[shock], fR[shock])
    rare = ~shock
    F[rare] = np.where(uL[rare] > 0, fL[rare], np.where(uR[rare] < 0, fR[rare], 0.0))
    return F


def advance(u, dx, cfl, tend):
    """Advance u in place to time tend; returns the number of steps taken."""
    t = 0.0
    nsteps = 0
    while t < tend:
        dt = cfl * dx / max(np.max(np.abs(u)), 1e-12)
        if t + dt > tend:
            dt = tend - t
        ug = np.concatenate(([u[0]], u, [u[-1]]))
        F = godunov_flux(ug[:-1], ug[1:])
        u -= dt / dx * (F[1:] - F[:-1])
        t += dt
        nsteps += 1
    return nsteps


def make_inputs(size="small"):
    nx = 24 if size == "small" else 2000
    x = (np.arange(nx) + 0.5) / nx
    u = np.where(x < 0.5, 1.0, -0.5) + 0.1 * np.sin(2 * np.pi * x)
    return dict(u=u, dx=1.0 / nx, cfl=0.5, tend=0.2)


if __name__ == "__main__":
    inputs = make_inputs("large")
    n = advance(**inputs)
    u = inputs["u"]
    print(f"steps        = {n}")
    print(f"total mass   = {u.sum() * inputs['dx']:.6f}")
    print(f"min, max     = {u.min():.6f}, {u.max():.6f}")
