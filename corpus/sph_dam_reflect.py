"""Smoothed-particle hydrodynamics: a block of fluid collapsing in a box (2-D dam break).

Domain: meshless CFD. Density is the kernel sum over all pairs (spiky kernel), pressure follows a
stiff linear equation of state, and the symmetric pressure force and viscosity (Laplacian kernel)
forces plus gravity move the particles, integrated by semi-implicit Euler. The smoothing length is
set from the number of neighbours wanted, with the volume of the unit DIM-ball from
scipy.special.gamma on constants. The walls reflect particles with a boundary helper that returns
the pair (`pos, vel = reflect(pos, vel, L)`), flipping the crossing coordinates through masks
(`pos[m, d] *= -1`). The block's initial lattice comes from set-up code. Density extremes and the
kinetic and potential energy are printed every few steps.
"""
import numpy as np
import scipy.special  # np2ref: requires scipy

ENTRY = "run_sph"

DIM = 2
N_NEIGH = 20      # particles inside one kernel support, roughly
STIFF = 2000.0    # equation of state p = STIFF max(rho - rho0, 0)
VISC = 0.5
G = 9.81
RESTITUTION = 0.5


def fluid_block(nx, ny, spacing):
    X, Y = np.meshgrid(np.arange(nx), np.arange(ny))
    pos = spacing * (np.stack([X.ravel(), Y.ravel()], axis=1) + 0.5)
    return pos


def smoothing_length(spacing):
    unit_ball = np.pi ** (DIM / 2) / scipy.special.gamma(DIM / 2 + 1)
    return (N_NEIGH * spacing ** DIM / unit_ball) ** (1.0 / DIM)


def reflect(pos, vel, L):
    for d in range(DIM):
        m = pos[:, d] < 0.0
        pos[m, d] *= -1
        vel[m, d] *= -RESTITUTION
        m = pos[:, d] > L
        pos[m, d] = 2 * L - pos[m, d]
        vel[m, d] *= -RESTITUTION
    return pos, vel


def densities(pos, h, mass):
    """Kernel density (the spiky kernel, the particle's own share included), the pair
    separations and distances."""
    d = pos[:, None, :] - pos[None, :, :]
    r = np.sqrt(np.sum(d * d, axis=2))
    w = np.where(r < h, 10.0 / (np.pi * h ** 5) * (h - r) ** 3, 0.0)
    return mass * w.sum(axis=1), d, r


def forces(vel, rho, d, r, h, mass, rho0):
    """Accelerations: symmetric pressure term (momentum conserving), Laplacian viscosity,
    gravity."""
    p = STIFF * np.maximum(rho - rho0, 0.0)  # no tension: free surfaces would pull apart
    near = (r < h) & (r > 0.0)
    rs = np.where(near, r, 1.0)
    dwdr = np.where(near, -30.0 / (np.pi * h ** 5) * (h - rs) ** 2, 0.0)
    pterm = mass * (p[:, None] / rho[:, None] ** 2 + p[None, :] / rho[None, :] ** 2) * dwdr / rs
    acc = -np.sum(pterm[:, :, None] * d, axis=1)
    lap = np.where(near, 40.0 / (np.pi * h ** 5) * (h - rs), 0.0)
    dv = vel[None, :, :] - vel[:, None, :]
    acc += VISC / rho[:, None] * np.sum((mass / rho[None, :] * lap)[:, :, None] * dv, axis=1)
    acc[:, 1] -= G
    return acc


def run_sph(pos, vel, L, spacing, dt, nsteps, every):
    """Move the particles pos, vel in place; returns the kinetic energy per step."""
    n = pos.shape[0]
    h = smoothing_length(spacing)
    rho0 = 1000.0
    number_density, _, _ = densities(pos, h, 1.0)
    mass = rho0 / number_density.max()  # the block's interior starts at rest density
    kinetic = np.zeros(nsteps)
    for step in range(nsteps):
        rho, d, r = densities(pos, h, mass)
        acc = forces(vel, rho, d, r, h, mass, rho0)
        vel += dt * acc
        pos += dt * vel
        pos, vel = reflect(pos, vel, L)
        kinetic[step] = 0.5 * mass * np.sum(vel * vel)
        if step % every == 0:
            potential = mass * G * np.sum(pos[:, 1])
            print(f"step {step:5d}  rho in [{rho.min():.6f}, {rho.max():.6f}]"
                  f"  kinetic = {kinetic[step]:.10e}  potential = {potential:.10e}  n = {n}")
    return kinetic


def make_inputs(size="small"):
    nx, ny, nsteps, every = (3, 3, 5, 2) if size == "small" else (12, 16, 600, 100)
    spacing = 0.02
    pos = fluid_block(nx, ny, spacing)
    return dict(pos=pos, vel=np.zeros_like(pos), L=2.5 * ny * spacing, spacing=spacing,
                dt=5e-4, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    kinetic = run_sph(**inputs)
    print(f"front position = {inputs['pos'][:, 0].max():.10f}")
    print(f"peak kinetic   = {kinetic.max():.10e}")
