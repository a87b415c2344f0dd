"""Lennard-Jones fluid in a periodic square box, velocity Verlet.

Domain: molecular dynamics. N atoms start on a square lattice (set-up code that takes no
array, jittered in place by the host code) with Gaussian velocities from a seeded generator (a
set-up function that only draws), the centre-of-mass drift removed by the host code. Forces use
the minimum-image convention and the 12-6 potential truncated and shifted at RC. After each
drift the positions are folded back into the box by a helper that wraps its argument in place
and returns it (`pos = wrap(pos, L)`), the way particle codes write it. The total energy (which
velocity Verlet conserves to O(dt^2)) and the temperature are printed every few steps.
"""
import numpy as np

ENTRY = "run_md"

RC = 2.5  # cut-off radius, in units of sigma


def make_lattice(n_side, L):
    """n_side**2 atoms at the centres of a square lattice filling the box [0, L)^2."""
    a = L / n_side
    X, Y = np.meshgrid(np.arange(n_side), np.arange(n_side))
    return a * (np.stack([X.ravel(), Y.ravel()], axis=1) + 0.5)


def initial_velocities(rng, n, temperature):
    return rng.normal(0.0, temperature ** 0.5, size=(n, 2))


def wrap(p, L):
    p %= L
    return p


def minimum_image(d, L):
    d = d - L * np.round(d / L)
    return d


def lj_forces(pos, L):
    """Forces (n, 2) and the potential energy of the truncated, shifted potential."""
    d = pos[:, None, :] - pos[None, :, :]
    d = minimum_image(d, L)
    r2 = np.sum(d * d, axis=2)
    np.fill_diagonal(r2, RC * RC)  # no self-interaction: the diagonal sits on the cut-off
    inside = r2 < RC * RC
    inv6 = np.where(inside, 1.0 / r2 ** 3, 0.0)
    shift = 4.0 * (RC ** -12 - RC ** -6)
    pot = 0.5 * np.sum(np.where(inside, 4.0 * (inv6 * inv6 - inv6) - shift, 0.0))
    fmag = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2
    f = np.sum(fmag[:, :, None] * d, axis=1)
    return f, pot


def run_md(pos, vel, L, dt, nsteps, every):
    """Advance pos and vel in place; returns the total energy per step."""
    n = pos.shape[0]
    f, pot = lj_forces(pos, L)
    energy = np.zeros(nsteps)
    for step in range(nsteps):
        vel += 0.5 * dt * f
        pos += dt * vel
        pos = wrap(pos, L)
        f, pot = lj_forces(pos, L)
        vel += 0.5 * dt * f
        kin = 0.5 * np.sum(vel * vel)
        energy[step] = kin + pot
        if step % every == 0:
            print(f"step {step:4d}  E/N = {(kin + pot) / n:.10f}  T = {kin / n:.10f}")
    return energy


def make_inputs(size="small"):
    rng = np.random.default_rng(11)
    n_side, nsteps, every = (3, 4, 2) if size == "small" else (12, 300, 50)
    L = 1.2 * n_side  # density 1/1.44: a dense liquid
    pos = make_lattice(n_side, L)
    pos += 0.05 * rng.uniform(-1.0, 1.0, size=pos.shape)  # break the lattice's symmetry
    vel = initial_velocities(rng, n_side * n_side, 0.8)
    vel -= vel.mean(axis=0)  # no drift of the centre of mass
    return dict(pos=pos, vel=vel, L=L, dt=0.004, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energy = run_md(**inputs)
    n = inputs["pos"].shape[0]
    print(f"energy drift / N = {(energy[-1] - energy[0]) / n:.6e}")
    print(f"mean x           = {inputs['pos'][:, 0].mean():.10f}")
    print(f"momentum         = {np.abs(inputs['vel'].sum(axis=0)).max():.3e}")
