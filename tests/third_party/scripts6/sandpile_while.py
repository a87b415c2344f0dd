"""Abelian sandpile: grains dropped at random sites, then `while` the pile has unstable sites,
topple them all at once (`unstable = h >= 4`, `h[unstable] -= 4`, neighbours gain through
shifted slices of the mask), counting topples per site with `np.add.at` over the unstable
sites' flat indices and avalanche sizes in a list; int32 heights.
"""
import numpy as np

N = 9
GRAINS = 60


def relax(h, topples):
    size = 0
    unstable = h >= 4
    while unstable.any():
        m = unstable.astype(np.int32)
        h -= 4 * m
        h[1:, :] += m[:-1, :]
        h[:-1, :] += m[1:, :]
        h[:, 1:] += m[:, :-1]
        h[:, :-1] += m[:, 1:]
        np.add.at(topples.ravel(), np.flatnonzero(unstable), 1)
        size += int(m.sum())
        unstable = h >= 4
    return size


def drive(h, sites, topples):
    sizes = []
    for s in sites:
        h.flat[s] += 1
        sizes.append(relax(h, topples))
    return sizes


def make(seed):
    rng = np.random.default_rng(seed)
    h = rng.integers(0, 4, size=(N, N)).astype(np.int32)
    return h, rng.integers(0, N * N, size=GRAINS), np.zeros((N, N), dtype=np.int64)


CHECKS = {"drive": lambda: make(8), "relax": lambda: (np.full((5, 5), 4, dtype=np.int32), np.zeros((5, 5), dtype=np.int64))}

if __name__ == "__main__":
    h, sites, topples = make(8)
    sizes = drive(h, sites, topples)
    print(sizes, int(h.sum()), int(topples.sum()), h.dtype, topples.max())
