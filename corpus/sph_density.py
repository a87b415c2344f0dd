"""Smoothed-particle hydrodynamics: density summation with the cubic-spline
(M4) kernel, Tait equation of state and pressure accelerations.

Domain: a 2-D block of weakly-compressible fluid (a dam-break start). The
density of each particle is summed over its neighbours within two smoothing
lengths in an explicit pair loop (the kernel helper branches on the
normalised distance q, as SPH codes do); the pressure follows from the Tait
equation, the symmetric pressure-gradient acceleration is accumulated into
both particles of each pair, and the particles take a symplectic-Euler step
under gravity.
"""
import numpy as np

ENTRY = "sph_step"

H = 0.1               # smoothing length
RHO0 = 1000.0
C0 = 10.0             # numerical speed of sound
GAMMA = 7.0
GRAVITY = -9.81
SIGMA2D = 10.0 / (7.0 * np.pi * H * H)


def cubic_spline(r):
    """M4 kernel W(r, H) in 2-D."""
    q = r / H
    if q < 1.0:
        w = 1.0 - 1.5 * q * q + 0.75 * q * q * q
    elif q < 2.0:
        w = 0.25 * (2.0 - q) ** 3
    else:
        w = 0.0
    return SIGMA2D * w


def cubic_spline_grad(r):
    """dW/dr of the M4 kernel in 2-D."""
    q = r / H
    if q < 1.0:
        dw = -3.0 * q + 2.25 * q * q
    elif q < 2.0:
        dw = -0.75 * (2.0 - q) ** 2
    else:
        dw = 0.0
    return SIGMA2D * dw / H


def density(pos, mass, rho):
    """rho_i = sum_j m_j W(|x_i - x_j|), self term included."""
    n = pos.shape[0]
    rho[:] = mass * cubic_spline(0.0)
    for i in range(n):
        for j in range(i + 1, n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            r = np.sqrt(dx * dx + dy * dy)
            if r < 2.0 * H:
                w = cubic_spline(r)
                rho[i] += mass[j] * w
                rho[j] += mass[i] * w


def tait_pressure(rho, p):
    B = RHO0 * C0 * C0 / GAMMA
    p[:] = B * ((rho / RHO0) ** GAMMA - 1.0)


def pressure_acceleration(pos, mass, rho, p, acc):
    n = pos.shape[0]
    acc[:, 0] = 0.0
    acc[:, 1] = GRAVITY
    for i in range(n):
        for j in range(i + 1, n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            r = np.sqrt(dx * dx + dy * dy)
            if r < 2.0 * H:
                coef = -(p[i] / rho[i] ** 2 + p[j] / rho[j] ** 2) * cubic_spline_grad(r) / r
                acc[i, 0] += mass[j] * coef * dx
                acc[i, 1] += mass[j] * coef * dy
                acc[j, 0] -= mass[i] * coef * dx
                acc[j, 1] -= mass[i] * coef * dy


def sph_step(pos, vel, mass, rho, p, dt, nsteps):
    """nsteps symplectic-Euler steps; pos, vel, rho, p updated in place.
    Returns the mean density after each step."""
    acc = np.zeros_like(pos)
    mean_rho = np.zeros(nsteps)
    for k in range(nsteps):
        density(pos, mass, rho)
        tait_pressure(rho, p)
        pressure_acceleration(pos, mass, rho, p, acc)
        vel += dt * acc
        pos += dt * vel
        mean_rho[k] = rho.mean()
    return mean_rho


def make_inputs(size="small"):
    rng = np.random.default_rng(2)
    side, nsteps = (3, 2) if size == "small" else (40, 200)
    dx = 0.8 * H
    g = np.arange(side) * dx
    X, Y = np.meshgrid(g, g, indexing="ij")
    pos = np.stack([X.ravel(), Y.ravel()], axis=1) + 0.01 * H * rng.standard_normal((side * side, 2))
    n = pos.shape[0]
    mass = np.full(n, RHO0 * dx * dx)
    return dict(pos=pos, vel=np.zeros((n, 2)), mass=mass, rho=np.zeros(n), p=np.zeros(n),
                dt=1.0e-4, nsteps=nsteps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mean_rho = sph_step(**inputs)
    print(f"mean rho start = {mean_rho[0]:.6f}")
    print(f"mean rho end   = {mean_rho[-1]:.6f}")
    print(f"max p          = {inputs['p'].max():.6f}")
