"""Cahn-Hilliard phase separation by explicit finite differences on a periodic grid: the
chemical potential mu = c^3 - c - gamma lap(c) computed into a preallocated array with `out=`
(`np.power(c, 3, out=mu)`, `np.subtract(mu, c, out=mu)`), laplacians by `np.roll`, float32
initial noise from `np.random.seed` mixed into a float64 field, the mass printed every N steps
(conserved), and the free energy history as a list of Python floats.
"""
import numpy as np


def lap(a, h2, out):
    np.add(np.roll(a, 1, 0), np.roll(a, -1, 0), out=out)
    out += np.roll(a, 1, 1)
    out += np.roll(a, -1, 1)
    out -= 4.0 * a
    out /= h2
    return out


def energy(c, gamma, h):
    gx = (np.roll(c, -1, 0) - c) / h
    gy = (np.roll(c, -1, 1) - c) / h
    return float((0.25 * (c ** 2 - 1) ** 2 + 0.5 * gamma * (gx ** 2 + gy ** 2)).sum() * h * h)


def evolve(c, gamma, dt, h, nsteps, every):
    mu = np.empty_like(c)
    tmp = np.empty_like(c)
    energies = []
    for n in range(nsteps):
        lap(c, h * h, tmp)
        np.power(c, 3, out=mu)
        np.subtract(mu, c, out=mu)
        mu -= gamma * tmp
        c += dt * lap(mu, h * h, tmp)
        if n % every == 0:
            energies.append(energy(c, gamma, h))
            print(n, "mass", f"{c.mean():.12f}")
    return c, energies


def make_inputs(n=16):
    np.random.seed(11)
    noise = (0.1 * np.random.randn(n, n)).astype(np.float32)
    c = np.zeros((n, n)) + noise
    return c


CHECKS = {
    "evolve": lambda: (make_inputs(), 0.5, 0.01, 1.0, 40, 10),
    "lap": lambda: (make_inputs(8), 1.0, np.zeros((8, 8))),
}

if __name__ == "__main__":
    c = make_inputs()
    c, energies = evolve(c, 0.5, 0.01, 1.0, 100, 25)
    print([round(e, 8) for e in energies], repr(c.std()), c.dtype)
