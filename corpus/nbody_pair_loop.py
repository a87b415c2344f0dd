"""Lennard-Jones molecular dynamics with an explicit pair loop.

Domain: a small box of argon-like atoms (reduced units) in a periodic cube.
Forces come from a double loop over pairs i < j with the minimum-image
convention and a spherical cutoff; each accepted pair adds to both atoms'
force rows (Newton's third law) and to the potential energy. Positions and
velocities are advanced with velocity Verlet; kinetic and potential energy
are recorded every step.
"""
import numpy as np

ENTRY = "run_md"

EPS = 1.0
SIGMA = 1.0
RC = 2.5
RC2 = RC * RC
MASS = 1.0


def compute_forces(pos, forces, box):
    """Zero forces, accumulate LJ pair forces; return potential energy."""
    n = pos.shape[0]
    forces[...] = 0.0
    energy = 0.0
    sr6c = (SIGMA * SIGMA / RC2) ** 3
    ecut = 4.0 * EPS * (sr6c * sr6c - sr6c)
    for i in range(n - 1):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            d -= box * np.round(d / box)
            r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
            if r2 < RC2:
                inv2 = SIGMA * SIGMA / r2
                sr6 = inv2 * inv2 * inv2
                f = 24.0 * EPS * (2.0 * sr6 * sr6 - sr6) / r2
                forces[i] += f * d
                forces[j] -= f * d
                energy += 4.0 * EPS * (sr6 * sr6 - sr6) - ecut
    return energy


def run_md(pos, vel, box, dt, steps):
    """Integrate in place; return (kinetic, potential) histories."""
    forces = np.zeros_like(pos)
    kin = np.zeros(steps)
    pot = np.zeros(steps)
    compute_forces(pos, forces, box)
    for t in range(steps):
        vel += 0.5 * dt * forces / MASS
        pos += dt * vel
        pos %= box
        e = compute_forces(pos, forces, box)
        vel += 0.5 * dt * forces / MASS
        kin[t] = 0.5 * MASS * np.sum(vel * vel)
        pot[t] = e
    return kin, pot


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        cells, steps = 1, 6       # 4 atoms
    else:
        cells, steps = 3, 100     # 108 atoms
    a = 1.6
    base = np.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.0],
                     [0.5, 0.0, 0.5], [0.0, 0.5, 0.5]])
    pts = []
    for ix in range(cells):
        for iy in range(cells):
            for iz in range(cells):
                pts.append((base + np.array([ix, iy, iz])) * a)
    pos = np.concatenate(pts, axis=0)
    box = cells * a
    pos += 0.02 * rng.standard_normal(pos.shape)
    pos %= box
    vel = 0.5 * rng.standard_normal(pos.shape)
    vel -= vel.mean(axis=0)
    return dict(pos=pos, vel=vel, box=box, dt=0.002, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    kin, pot = run_md(**inputs)
    print(f"E start = {kin[0] + pot[0]:.6f}")
    print(f"E end   = {kin[-1] + pot[-1]:.6f}")
    print(f"KE end  = {kin[-1]:.6f}")
    print(f"sum pos = {inputs['pos'].sum():.6f}")
