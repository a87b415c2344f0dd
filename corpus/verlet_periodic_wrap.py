"""Velocity Verlet for soft-sphere particles in a periodic box.

Domain: molecular dynamics. N particles in a 2-D periodic box of side L repel through a
harmonic soft-sphere potential (overlap only), with minimum-image separations. Positions are
kept in the box by rebinding (`pos = pos % L`) inside a helper that returns the pair
(`pos, vel = wrap(pos, vel, L)`); a second helper returns the forces and the potential energy
(`f, epot = forces(pos, L)`). The lattice start and the random velocities with zero net momentum
come from set-up code. Kinetic, potential and total energy are printed every few steps.
"""
import numpy as np

ENTRY = "run_verlet"
SIGMA = 1.0
EPS = 50.0


def lattice(nside, L, rng):
    g = (np.arange(nside) + 0.5) * L / nside
    X, Y = np.meshgrid(g, g)
    pos = np.stack([X.ravel(), Y.ravel()], axis=1)
    vel = rng.normal(0.0, 1.0, pos.shape)
    vel -= vel.mean(axis=0)
    return pos, vel


def wrap(pos, vel, L):
    pos = pos % L
    return pos, vel


def forces(pos, L):
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.round(d / L)
    r = np.sqrt((d * d).sum(axis=2))
    np.fill_diagonal(r, 2 * SIGMA)
    overlap = np.maximum(SIGMA - r, 0.0)
    f = (EPS * overlap / r)[:, :, None] * d
    return f.sum(axis=1), 0.25 * EPS * (overlap ** 2).sum()


def run_verlet(pos, vel, L, dt, nsteps, every):
    """Move the particles; the caller's pos holds the first half step, vel every step.
    Returns the final positions and the total energy per step."""
    f, epot = forces(pos, L)
    energy = np.zeros(nsteps)
    for step in range(nsteps):
        vel += 0.5 * dt * f
        pos += dt * vel
        pos, vel = wrap(pos, vel, L)
        f, epot = forces(pos, L)
        vel += 0.5 * dt * f
        ekin = 0.5 * (vel * vel).sum()
        energy[step] = ekin + epot
        if step % every == 0:
            print(f"step {step:5d}  kinetic = {ekin:.10f}  potential = {epot:.10f}  total = {energy[step]:.10f}")
    return pos, energy


def make_inputs(size="small"):
    rng = np.random.default_rng(11)
    nside, nsteps, every = (3, 8, 3) if size == "small" else (12, 2000, 250)
    L = 1.05 * nside * SIGMA
    pos, vel = lattice(nside, L, rng)
    return dict(pos=pos, vel=vel, L=L, dt=2e-3, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    pos, energy = run_verlet(**inputs)
    print(f"final energy = {energy[-1]:.10f}  inside = {bool(((pos >= 0) & (pos < inputs['L'])).all())}")
