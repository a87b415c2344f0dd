"""Stochastic SIR epidemic on a lattice: int8 states, boolean masks, legacy np.random seeding.

States 0 (susceptible), 1 (infected), 2 (recovered) in an int8 grid. Each step counts infected
von Neumann neighbours with shifted slices of a zero-padded copy (np.pad), infects
susceptibles with probability 1 - (1 - BETA)**k from np.random.random (seeded once with
np.random.seed before the loop), recovers infected ones with probability GAMMA, and stores
the new states with boolean masks (`grid[new_inf] = 1`). Counts per state are printed each
step and kept in an int64 history array; the loop stops early (`break`) when no one is infected.
"""
import numpy as np

ENTRY = "epidemic"
BETA = 0.3
GAMMA = 0.2
S, I, R = 0, 1, 2


def infected_neighbours(grid):
    inf = np.pad((grid == I).astype(np.int64), 1)
    return inf[:-2, 1:-1] + inf[2:, 1:-1] + inf[1:-1, :-2] + inf[1:-1, 2:]


def epidemic(grid, nsteps, seed):
    np.random.seed(seed)
    history = np.zeros((nsteps, 3), dtype=np.int64)
    for t in range(nsteps):
        k = infected_neighbours(grid)
        p_inf = 1.0 - (1.0 - BETA) ** k
        u = np.random.random(grid.shape)
        new_inf = (grid == S) & (u < p_inf)
        recover = (grid == I) & (np.random.random(grid.shape) < GAMMA)
        grid[new_inf] = I
        grid[recover] = R
        history[t] = [np.sum(grid == S), np.sum(grid == I), np.sum(grid == R)]
        print(t, repr(history[t].tolist()))
        if history[t, 1] == 0:
            break
    return history


def make_inputs(size="small"):
    n = 10 if size == "small" else 40
    grid = np.zeros((n, n), dtype=np.int8)
    grid[n // 2, n // 2] = I
    return dict(grid=grid, nsteps=12, seed=42)


if __name__ == "__main__":
    inputs = make_inputs("large")
    hist = epidemic(**inputs)
    print(repr(hist.sum(axis=0).tolist()), repr(np.bincount(inputs["grid"].ravel()).tolist()))
