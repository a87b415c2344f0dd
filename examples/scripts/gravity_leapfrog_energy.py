"""Gravitational N-body with Plummer softening, kick-drift-kick leapfrog, energy every k steps.

Accelerations from pairwise separations built by broadcasting (`pos[None, :, :] - pos[:, None,
:]`), softened by EPS; the leapfrog kicks the velocities by half steps in place and drifts the
positions; the total energy (kinetic + pairwise potential over the upper triangle,
np.triu_indices) is printed every PRINT_EVERY steps and stored in a history array.
"""
import numpy as np

ENTRY = "integrate"
G = 1.0
EPS = 0.05
PRINT_EVERY = 4


def accelerations(pos, mass):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = np.sum(d ** 2, axis=-1) + EPS ** 2
    inv_r3 = r2 ** -1.5
    np.fill_diagonal(inv_r3, 0.0)
    return G * np.einsum("ij,ijk,j->ik", inv_r3, d, mass)


def total_energy(pos, vel, mass):
    kin = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    i, j = np.triu_indices(len(mass), k=1)
    r = np.sqrt(np.sum((pos[i] - pos[j]) ** 2, axis=1) + EPS ** 2)
    pot = -G * np.sum(mass[i] * mass[j] / r)
    return kin + pot


def integrate(pos, vel, mass, dt, nsteps):
    energies = np.empty(nsteps // PRINT_EVERY + 1)
    acc = accelerations(pos, mass)
    e0 = total_energy(pos, vel, mass)
    energies[0] = e0
    for step in range(1, nsteps + 1):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = accelerations(pos, mass)
        vel += 0.5 * dt * acc
        if step % PRINT_EVERY == 0:
            e = total_energy(pos, vel, mass)
            energies[step // PRINT_EVERY] = e
            print(step, repr(float(e)), repr(float((e - e0) / abs(e0))))
    return energies


def make_inputs(size="small"):
    n = 6 if size == "small" else 40
    rng = np.random.default_rng(11)
    pos = rng.standard_normal((n, 3))
    vel = 0.3 * rng.standard_normal((n, 3))
    mass = rng.uniform(0.5, 1.5, n) / n
    vel -= np.sum(mass[:, None] * vel, axis=0) / mass.sum()    # centre-of-mass frame
    return dict(pos=pos, vel=vel, mass=mass, dt=0.01, nsteps=16)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energies = integrate(**inputs)
    print(repr(energies.tolist()))
    print(repr(inputs["pos"].sum()), repr(inputs["vel"].sum()))
