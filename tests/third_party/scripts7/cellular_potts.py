"""A cellular Potts model: an int32 lattice of cell labels, copy attempts from a random neighbour
accepted by the Metropolis rule on adhesion plus an area constraint; areas kept in an int64
array updated by `areas[old] -= 1; areas[new] += 1`, label 0 as medium (no area term), the
number of accepted copies per sweep in a list, `np.random.seed` and `np.random.randint`/`rand`.
"""
import numpy as np

L = 12
J = 2.0
LAM = 1.0
TARGET = 16
T = 4.0
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def local_energy(grid, i, j, label):
    n = grid.shape[0]
    e = 0.0
    for di, dj in DIRS:
        if grid[(i + di) % n, (j + dj) % n] != label:
            e += J
    return e


def attempt(grid, areas, i, j, di, dj, r):
    n = grid.shape[0]
    old = grid[i, j]
    new = grid[(i + di) % n, (j + dj) % n]
    if new == old:
        return 0
    dH = local_energy(grid, i, j, new) - local_energy(grid, i, j, old)
    if old != 0:
        dH += LAM * ((areas[old] - 1 - TARGET) ** 2 - (areas[old] - TARGET) ** 2)
    if new != 0:
        dH += LAM * ((areas[new] + 1 - TARGET) ** 2 - (areas[new] - TARGET) ** 2)
    if dH <= 0 or r < np.exp(-dH / T):
        grid[i, j] = new
        areas[old] -= 1
        areas[new] += 1
        return 1
    return 0


def run(grid, ncells, nsweeps, seed):
    np.random.seed(seed)
    areas = np.bincount(grid.ravel(), minlength=ncells + 1).astype(np.int64)
    accepted = []
    for s in range(nsweeps):
        acc = 0
        for _ in range(grid.size):
            i, j = np.random.randint(0, L, size=2)
            d = DIRS[np.random.randint(4)]
            acc += attempt(grid, areas, i, j, d[0], d[1], np.random.rand())
        accepted.append(acc)
    return grid, areas, accepted


def initial():
    grid = np.zeros((L, L), dtype=np.int32)
    grid[2:6, 2:6] = 1
    grid[6:10, 5:9] = 2
    grid[1:4, 8:11] = 3
    return grid


CHECKS = {"run": lambda: (initial(), 3, 3, 11),
          "attempt": lambda: (initial(), np.array([92, 16, 16, 9]), 5, 5, 0, 1, 0.5)}

if __name__ == "__main__":
    grid, areas, accepted = run(initial(), 3, 4, 11)
    print(areas.tolist(), accepted, grid.dtype, repr(int((grid == 1).sum())))
