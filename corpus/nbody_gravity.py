"""Direct-summation N-body integrator (kick-drift-kick leapfrog).

Domain: a small self-gravitating star cluster with a handful of harmonic
"binary" bonds between selected pairs (a crude model of tidally locked
pairs). Gravitational accelerations are computed fully vectorised with
Plummer softening; bond forces are scattered with np.add.at / np.subtract.at
(one particle can take part in several bonds). Velocities and positions are
updated in place and the centre-of-mass drift is removed every step.
"""
import numpy as np

ENTRY = "simulate"

G = 1.0
EPS2 = 1.0e-2       # Plummer softening length squared
K_BOND = 5.0
R_BOND = 0.1


def accelerations(pos, mass, acc, bonds):
    """Write the acceleration of every body into acc; returns acc."""
    d = pos[None, :, :] - pos[:, None, :]          # d[i, j] = pos[j] - pos[i]
    r2 = np.einsum("ijk,ijk->ij", d, d) + EPS2
    inv_r3 = r2 ** -1.5
    np.fill_diagonal(inv_r3, 0.0)                   # no self force
    acc[...] = G * np.einsum("ij,ijk,j->ik", inv_r3, d, mass)
    bi = bonds[:, 0]
    bj = bonds[:, 1]
    dv = pos[bj] - pos[bi]
    length = np.linalg.norm(dv, axis=1)
    fvec = (K_BOND * (length - R_BOND) / length)[:, None] * dv
    np.add.at(acc, bi, fvec / mass[bi][:, None])
    np.subtract.at(acc, bj, fvec / mass[bj][:, None])
    return acc


def potential_energy(pos, mass, bonds):
    d = pos[None, :, :] - pos[:, None, :]
    r = np.sqrt(np.einsum("ijk,ijk->ij", d, d) + EPS2)
    inv_r = 1.0 / r
    np.fill_diagonal(inv_r, 0.0)
    e_grav = -0.5 * G * np.sum(np.outer(mass, mass) * inv_r)
    dv = pos[bonds[:, 1]] - pos[bonds[:, 0]]
    stretch = np.linalg.norm(dv, axis=1) - R_BOND
    return e_grav + 0.5 * K_BOND * np.sum(stretch * stretch)


def remove_drift(vel, mass):
    vel -= np.sum(mass[:, None] * vel, axis=0) / np.sum(mass)


def simulate(pos, vel, mass, bonds, dt, steps):
    """Integrate in place. Returns (kinetic, potential) energy histories and
    the final total energy as a 0-d array."""
    acc = np.zeros_like(pos)
    ekin = np.zeros(steps)
    epot = np.zeros(steps)
    remove_drift(vel, mass)
    accelerations(pos, mass, acc, bonds)
    for k in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        accelerations(pos, mass, acc, bonds)
        vel += 0.5 * dt * acc
        remove_drift(vel, mass)
        ekin[k] = 0.5 * np.sum(mass * np.sum(vel * vel, axis=1))
        epot[k] = potential_energy(pos, mass, bonds)
    etot = np.zeros(())
    etot += ekin[-1]
    etot += epot[-1]
    return ekin, epot, etot


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, nb, steps = 8, 4, 5
    else:
        n, nb, steps = 400, 60, 200
    pos = rng.standard_normal((n, 3))
    vel = 0.3 * rng.standard_normal((n, 3))
    mass = rng.uniform(0.5, 1.5, size=n) / n
    bi = rng.integers(0, n, size=nb)
    bi[1] = bi[0]                     # one body in two bonds
    bj = (bi + 1 + rng.integers(0, n - 1, size=nb)) % n   # never equal to bi
    bonds = np.stack([bi, bj], axis=1)
    bonds[-1] = bonds[0][::-1]        # same pair again, reversed: duplicates
    return dict(pos=pos, vel=vel, mass=mass, bonds=bonds, dt=1.0e-3,
                steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    ekin, epot, etot = simulate(**inputs)
    e0 = ekin[0] + epot[0]
    print(f"E start        = {e0:.6f}")
    print(f"E end          = {float(etot):.6f}")
    print(f"relative drift = {abs(float(etot) - e0) / abs(e0):.6e}")
    print(f"rms radius     = {np.sqrt(np.mean(np.sum(inputs['pos'] ** 2, axis=1))):.6f}")
