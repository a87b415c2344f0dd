"""Drossel-Schwabl forest fire on a grid: states 0 empty, 1 tree, 2 burning in a uint8 array;
burning neighbours counted from a padded copy (`p = np.pad(grid, 1)`) with views, the new grid
built from `np.where`s on fresh draws (`np.random.seed` + `np.random.random(grid.shape)`),
`grid[...] = new`, tree and fire counts recorded into int arrays, and a `break` if the fire
dies out with no trees left.
"""
import numpy as np

P_GROW = 0.05
P_LIGHT = 0.001


def burning_neighbours(grid):
    p = np.pad(grid == 2, 1)
    return (p[:-2, 1:-1] | p[2:, 1:-1] | p[1:-1, :-2] | p[1:-1, 2:])


def step(grid):
    r = np.random.random(grid.shape)
    fire = burning_neighbours(grid)
    new = grid.copy()
    new[grid == 2] = 0
    trees = grid == 1
    new[trees & (fire | (r < P_LIGHT))] = 2
    new[(grid == 0) & (r < P_GROW)] = 1
    grid[...] = new
    return int((grid == 2).sum())


def run(grid, nsteps, seed):
    np.random.seed(seed)
    trees = np.zeros(nsteps, dtype=np.int64)
    fires = np.zeros(nsteps, dtype=np.int32)
    n = 0
    for n in range(nsteps):
        fires[n] = step(grid)
        trees[n] = np.count_nonzero(grid == 1)
        if fires[n] == 0 and trees[n] == 0:
            break
    return grid, trees, fires, n


def initial(size):
    grid = np.ones((size, size), dtype=np.uint8)
    grid[size // 2, size // 2] = 2
    grid[::5, ::3] = 0
    return grid


CHECKS = {"run": lambda: (initial(20), 30, 1), "run#short": lambda: (initial(9), 5, 3)}

if __name__ == "__main__":
    grid, trees, fires, n = run(initial(24), 40, 1)
    print(n, trees[::8].tolist(), fires[::8].tolist(), grid.dtype, np.bincount(grid.ravel()).tolist())
