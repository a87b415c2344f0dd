"""Lennard-Jones fluid, vectorised force evaluation with a truncated and
shifted potential (cutoff r_c = 2.5 sigma), velocity-Verlet integration.

Domain: molecular dynamics of a 2-D Lennard-Jones liquid in a periodic box,
reduced units. All pair separations are formed at once (N x N x 2), folded
with the minimum-image convention, and pairs beyond the cutoff (and the
diagonal) are switched off with boolean-mask stores into the inverse-r^2
matrix, the way array-style MD codes avoid the O(N^2) Python loop. A simple
velocity-rescaling thermostat acts every few steps.
"""
import numpy as np

ENTRY = "md"

EPS = 1.0
SIGMA = 1.0
RC = 2.5
THERMO_EVERY = 4
T_TARGET = 0.8


def lj_forces(pos, forces, box):
    """Write the LJ forces into `forces`; return the potential energy."""
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r2 = np.sum(d * d, axis=2)
    far = r2 > RC * RC
    np.fill_diagonal(r2, 1.0)          # avoid 0/0 on the diagonal
    inv2 = SIGMA * SIGMA / r2
    inv2[far] = 0.0                    # truncated: no force beyond r_c
    np.fill_diagonal(inv2, 0.0)
    inv6 = inv2 ** 3
    fmag = 24.0 * EPS * (2.0 * inv6 * inv6 - inv6) * inv2 / SIGMA ** 2
    forces[...] = np.sum(fmag[:, :, None] * d, axis=1)
    sr6c = (SIGMA / RC) ** 6
    e_pair = 4.0 * EPS * (inv6 * inv6 - inv6 - (sr6c * sr6c - sr6c))
    e_pair[inv2 == 0.0] = 0.0          # shifted: zero beyond r_c and on the diagonal
    return 0.5 * np.sum(e_pair)


def thermostat(vel, target):
    n, dim = vel.shape
    temp = np.sum(vel * vel) / (dim * (n - 1))
    vel *= np.sqrt(target / temp)


def md(pos, vel, box, dt, steps):
    """Integrate in place; return (potential, kinetic) energy per step."""
    forces = np.zeros_like(pos)
    epot = np.zeros(steps)
    ekin = np.zeros(steps)
    lj_forces(pos, forces, box)
    for k in range(steps):
        vel += 0.5 * dt * forces
        pos += dt * vel
        pos %= box
        epot[k] = lj_forces(pos, forces, box)
        vel += 0.5 * dt * forces
        if (k + 1) % THERMO_EVERY == 0:
            thermostat(vel, T_TARGET)
        ekin[k] = 0.5 * np.sum(vel * vel)
    return epot, ekin


def make_inputs(size="small"):
    rng = np.random.default_rng(1)
    side, steps = (4, 6) if size == "small" else (24, 2000)
    spacing = 1.12
    g = (np.arange(side) + 0.5) * spacing
    X, Y = np.meshgrid(g, g, indexing="ij")
    pos = np.stack([X.ravel(), Y.ravel()], axis=1)
    pos += 0.03 * rng.standard_normal(pos.shape)
    vel = np.sqrt(T_TARGET) * rng.standard_normal(pos.shape)
    vel -= vel.mean(axis=0)
    return dict(pos=pos, vel=vel, box=side * spacing, dt=0.004, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    epot, ekin = md(**inputs)
    print(f"E_pot end = {epot[-1]:.6f}")
    print(f"E_kin end = {ekin[-1]:.6f}")
    print(f"E total   = {epot[-1] + ekin[-1]:.6f}")
