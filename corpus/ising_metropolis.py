"""Metropolis Monte Carlo for the 2-D Ising model, random numbers drawn up
front.

Domain: statistical physics. A square lattice of +-1 spins with periodic
boundaries and coupling J is sampled at inverse temperature beta with
single-spin-flip Metropolis updates. All randomness (the site visited at
each attempt and the uniform number for the acceptance test) is drawn
before the run, so the sampling kernel itself is deterministic and can be
replayed exactly. The spin array is flipped in place; energy and
magnetisation are tracked incrementally and recorded once per sweep. The
acceptance test reads a table of Boltzmann factors indexed by int(dE).

np2ref: the table index int(dE) is a Python int taken from array data; it
becomes `npr_int(dE)`, the traced integer (truncated toward zero), which
indexes the table inside the compiled loop.
"""
import numpy as np

ENTRY = "metropolis"

J = 1.0


def local_field(spins, i, j):
    n = spins.shape[0]
    return (spins[(i + 1) % n, j] + spins[(i - 1) % n, j]
            + spins[i, (j + 1) % n] + spins[i, (j - 1) % n])


def total_energy(spins):
    right = np.roll(spins, -1, axis=1)
    down = np.roll(spins, -1, axis=0)
    return -J * np.sum(spins * (right + down))


def metropolis(spins, sites, uniforms, beta):
    """Run sites.shape[0] sweeps of sites.shape[1] attempts each, flipping
    spins in place. Returns (energy per sweep, magnetisation per sweep,
    acceptance count)."""
    nsweeps, attempts, _ = sites.shape
    # acceptance probabilities for dE = 4J and 8J, tabulated once
    boltz = np.exp(-beta * J * np.array([4.0, 8.0]))
    energy = total_energy(spins) * 1.0
    mag = np.sum(spins) * 1.0
    e_hist = np.zeros(nsweeps)
    m_hist = np.zeros(nsweeps)
    accepted = 0
    for s in range(nsweeps):
        for a in range(attempts):
            i = sites[s, a, 0]
            j = sites[s, a, 1]
            dE = 2.0 * J * spins[i, j] * local_field(spins, i, j)
            if dE <= 0.0 or uniforms[s, a] < boltz[int(dE) // 4 - 1]:
                spins[i, j] *= -1
                energy += dE
                mag += 2.0 * spins[i, j]
                accepted += 1
        e_hist[s] = energy
        m_hist[s] = mag
    return e_hist, m_hist, accepted


def make_inputs(size="small"):
    rng = np.random.default_rng(8)
    n, nsweeps = (4, 3) if size == "small" else (64, 500)
    spins = rng.choice(np.array([-1, 1], dtype=np.int64), size=(n, n))
    sites = rng.integers(0, n, size=(nsweeps, n * n, 2))
    uniforms = rng.random((nsweeps, n * n))
    return dict(spins=spins, sites=sites, uniforms=uniforms, beta=0.44)


if __name__ == "__main__":
    inputs = make_inputs("large")
    e_hist, m_hist, accepted = metropolis(**inputs)
    n = inputs["spins"].shape[0]
    print(f"energy / spin = {e_hist[-1] / n ** 2:.6f}")
    print(f"|m| / spin    = {abs(m_hist[-1]) / n ** 2:.6f}")
    print(f"accepted      = {accepted}")
