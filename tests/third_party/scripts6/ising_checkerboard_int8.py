"""2-D Ising model with int8 spins updated on a checkerboard: the neighbour sum by `np.roll`
(int8 + int8 stays int8), acceptance by comparing seeded uniforms with a Boltzmann table
indexed by `dE // 4 + 2`, flips by `spins[flip] *= -1`, magnetisation history as NumPy int64
sums, and a progress print every few sweeps.
"""
import numpy as np

L = 12
BETA = 0.45
SWEEPS = 10


def sweep(spins, rng, table, masks):
    for mask in masks:
        nb = (np.roll(spins, 1, 0) + np.roll(spins, -1, 0) + np.roll(spins, 1, 1) + np.roll(spins, -1, 1))
        dE = 2 * spins * nb
        p = table[dE // 4 + 2]
        flip = mask & (rng.random(spins.shape) < p)
        spins[flip] *= -1


def run(spins, seed, sweeps):
    rng = np.random.default_rng(seed)
    table = np.exp(-BETA * 4.0 * np.arange(-2, 3))
    i, j = np.indices(spins.shape)
    masks = ((i + j) % 2 == 0, (i + j) % 2 == 1)
    mags = []
    for s in range(sweeps):
        sweep(spins, rng, table, masks)
        mags.append(spins.sum())
        if s % 3 == 0:
            print("sweep", s, repr(mags[-1]), spins.dtype)
    return mags


CHECKS = {"run": lambda: (np.ones((L, L), dtype=np.int8), 5, SWEEPS)}

if __name__ == "__main__":
    spins = np.ones((L, L), dtype=np.int8)
    mags = run(spins, 5, SWEEPS)
    print([int(m) for m in mags], type(mags[0]).__name__, int(spins.sum()))
