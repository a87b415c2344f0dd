"""Schelling's segregation model on a torus: an int8 grid (0 empty, 1 and 2 the two groups),
the fraction of like neighbours by np.roll sums over the eight shifts, unhappy agents found by a
mask and, in an order drawn by rng.permutation, each trying one random cell and moving there
if it is empty (the grid written through its raveled view), the share of unhappy agents and the
mean similarity per round printed, a Python-int count of moves.
"""
import numpy as np

N = 20
THRESH = 0.5
SHIFTS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def populate(n, empty=0.2, seed=0):
    rng = np.random.default_rng(seed)
    u = rng.random((n, n))
    grid = np.where(u < empty, 0, np.where(u < (1 + empty) / 2, 1, 2)).astype(np.int8)
    return grid


def like_fraction(grid):
    same = np.zeros(grid.shape, dtype=np.int32)
    occupied = np.zeros(grid.shape, dtype=np.int32)
    for dr, dc in SHIFTS:
        nb = np.roll(np.roll(grid, dr, axis=0), dc, axis=1)
        occupied += nb > 0
        same += (nb == grid) & (grid > 0)
    frac = np.where(occupied > 0, same / np.maximum(occupied, 1), 1.0)
    return frac


def unhappy_mask(grid, thresh):
    return (grid > 0) & (like_fraction(grid) < thresh)


def relocate(grid, rng, thresh):
    """Each unhappy agent, in a random order, tries one random cell and moves there if empty."""
    flat = grid.reshape(-1)
    unhappy = unhappy_mask(grid, thresh).reshape(-1)
    order = rng.permutation(flat.size)
    targets = rng.integers(0, flat.size, size=flat.size)
    moves = 0
    for i in range(flat.size):
        m = order[i]
        e = targets[i]
        if unhappy[m] and flat[m] != 0 and flat[e] == 0:
            flat[e] = flat[m]
            flat[m] = 0
            moves += 1
    return moves


def similarity(grid):
    frac = like_fraction(grid)
    return frac[grid > 0].mean()


def simulate(grid, rounds, seed, thresh=THRESH):
    rng = np.random.default_rng(seed)
    log = np.zeros((rounds, 2))
    total = 0
    for r in range(rounds):
        total += relocate(grid, rng, thresh)
        log[r, 0] = unhappy_mask(grid, thresh).mean()
        log[r, 1] = similarity(grid)
    return log, total


CHECKS = {
    "simulate": lambda: (populate(10, seed=3), 3, 5),
    "relocate": lambda: (populate(8, seed=5), np.random.default_rng(1), 0.5),
    "like_fraction": lambda: (populate(8, seed=1),),
    "unhappy_mask": lambda: (populate(8, seed=2), 0.6),
    "similarity": lambda: (populate(9, seed=4),),
}

if __name__ == "__main__":
    grid = populate(N)
    print("start", repr(similarity(grid)), np.bincount(grid.ravel()))
    log, total = simulate(grid, 6, 42)
    for r in range(6):
        print(r, repr(log[r, 0]), repr(log[r, 1]))
    print("moves", total, np.bincount(grid.ravel()), grid.dtype)
