"""Binned energy spectrum of particles, counts deposited with `np.add.at(c, idx[mask], 1)`.

Particles outside the binned range are dropped by a mask on the bin index (`np.add.at(counts,
idx[inside], 1)` and `np.add.at(energy, idx[inside], e[inside])`), the mean energy per bin
divides where counts are non-zero (`np.divide(..., out=..., where=...)`), and the run is seeded
with `np.random.seed`. The particle energies are updated each step with a drift and a kick.
"""
import numpy as np

ENTRY = "spectrum"
NBINS = 8


def bin_index(e, lo, hi):
    return np.floor((e - lo) / (hi - lo) * NBINS).astype(np.int64)


def spectrum(e, lo, hi, nsteps):
    counts = np.zeros(NBINS, dtype=np.int64)
    energy = np.zeros(NBINS)
    for step in range(nsteps):
        e *= 1.02
        e[::3] -= 0.05
        idx = bin_index(e, lo, hi)
        inside = (idx >= 0) & (idx < NBINS)
        np.add.at(counts, idx[inside], 1)
        np.add.at(energy, idx[inside], e[inside])
        print(step, int(inside.sum()), counts.tolist())
    mean = np.zeros(NBINS)
    np.divide(energy, counts, out=mean, where=counts > 0)
    return counts, mean


def make_inputs(size="small"):
    np.random.seed(21)
    n = 30 if size == "small" else 1000
    return dict(e=np.random.exponential(1.0, n), lo=0.0, hi=3.0, nsteps=6)


if __name__ == "__main__":
    inputs = make_inputs("large")
    counts, mean = spectrum(**inputs)
    print(counts.tolist(), repr(mean.tolist()), repr(inputs["e"].sum()))
