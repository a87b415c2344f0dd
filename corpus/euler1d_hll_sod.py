"""Sod's shock tube: the 1-D Euler equations by a finite-volume HLL scheme.

Domain: compressible gas dynamics. The conserved state U = (rho, rho u, E) lives in cell
averages; the set-up code builds the two constant states of the tube (no array argument). Each
step takes the largest stable time step (CFL on |u| + c, a data-dependent `while t < t_end`
loop), computes the HLL flux at every interface from a physical-flux helper that returns a tuple
(`f1, f2, f3 = euler_flux(rho, mom, E)`), and updates the interior cells in place; a helper that
floors the density and pressure returns its argument (`U = floor_state(U)`). Mass, energy and the
time step are printed every few steps.
"""
import numpy as np

ENTRY = "run_sod"
# np2ref: verify vmap  (grad: JAX cannot reverse-differentiate a while loop)

GAMMA = 1.4


def sod_state(n):
    """Cell centres and the conserved state of Sod's problem on [0, 1]."""
    x = (np.arange(n) + 0.5) / n
    rho = np.where(x < 0.5, 1.0, 0.125)
    p = np.where(x < 0.5, 1.0, 0.1)
    U = np.zeros((3, n))
    U[0] = rho
    U[2] = p / (GAMMA - 1.0)
    return x, U


def primitive(rho, mom, E):
    u = mom / rho
    p = (GAMMA - 1.0) * (E - 0.5 * rho * u * u)
    return u, p


def euler_flux(rho, mom, E):
    u, p = primitive(rho, mom, E)
    return mom, mom * u + p, (E + p) * u


def hll_flux(UL, UR):
    """HLL flux between left states UL and right states UR (each (3, m))."""
    uL, pL = primitive(UL[0], UL[1], UL[2])
    uR, pR = primitive(UR[0], UR[1], UR[2])
    cL = np.sqrt(GAMMA * pL / UL[0])
    cR = np.sqrt(GAMMA * pR / UR[0])
    sL = np.minimum(uL - cL, uR - cR)
    sR = np.maximum(uL + cL, uR + cR)
    FL = np.array(euler_flux(UL[0], UL[1], UL[2]))
    FR = np.array(euler_flux(UR[0], UR[1], UR[2]))
    F = (sR * FL - sL * FR + sL * sR * (UR - UL)) / (sR - sL)
    F = np.where(sL >= 0.0, FL, F)
    F = np.where(sR <= 0.0, FR, F)
    return F


def floor_state(U):
    U[0] = np.maximum(U[0], 1e-10)
    u, p = primitive(U[0], U[1], U[2])
    U[2] = np.maximum(p, 1e-10) / (GAMMA - 1.0) + 0.5 * U[0] * u * u
    return U


def run_sod(U, dx, t_end, cfl, every):
    """Advance U in place to t_end (the end cells are held: transmissive while waves stay
    inside); returns the number of steps and the final time."""
    t = 0.0
    nsteps = 0
    while t < t_end:
        u, p = primitive(U[0], U[1], U[2])
        c = np.sqrt(GAMMA * p / U[0])
        dt = cfl * dx / np.max(np.abs(u) + c)
        dt = min(dt, t_end - t)
        F = hll_flux(U[:, :-1], U[:, 1:])
        U[:, 1:-1] -= dt / dx * (F[:, 1:] - F[:, :-1])
        U = floor_state(U)
        t += dt
        nsteps += 1
        if nsteps % every == 0:
            print(f"step {nsteps:4d}  t = {t:.8f}  dt = {dt:.8e}  mass = {np.sum(U[0]) * dx:.12f}"
                  f"  energy = {np.sum(U[2]) * dx:.12f}")
    return nsteps, t


def make_inputs(size="small"):
    n, every = (12, 2) if size == "small" else (2000, 100)
    x, U = sod_state(n)
    return dict(U=U, dx=1.0 / n, t_end=0.05 if size == "small" else 0.2, cfl=0.8, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    nsteps, t = run_sod(**inputs)
    U = inputs["U"]
    n = U.shape[1]
    print(f"steps = {nsteps}, t = {t:.8f}")
    print(f"density at x = 0.8: {U[0, int(0.8 * n)]:.8f} (exact, post-shock 0.26557)")
    print(f"max velocity      : {np.max(U[1] / U[0]):.8f}")
