"""Abelian sandpile: grains dropped at random sites, toppled until stable, avalanche sizes kept.

Each drop adds a grain (`grid[i, j] += 1`), then `while (grid >= 4).any()` topples every
unstable site at once (`topple = grid >= 4`, `grid[topple] -= 4`, neighbours get `+=` of the
shifted mask through views of a padded work array, whose edge is discarded), counting the
avalanche size in an int and appending it to a list. Seeded with `np.random.seed`.
"""
import numpy as np

ENTRY = "drive"


def relax(grid, work):
    size = 0
    while (grid >= 4).any():
        topple = grid >= 4
        size += int(topple.sum())
        grid[topple] -= 4
        work[...] = 0
        t = topple.astype(grid.dtype)
        work[:-2, 1:-1] += t
        work[2:, 1:-1] += t
        work[1:-1, :-2] += t
        work[1:-1, 2:] += t
        grid += work[1:-1, 1:-1]
    return size


def drive(grid, drops, seed):
    np.random.seed(seed)
    n = grid.shape[0]
    work = np.zeros((n + 2, n + 2), dtype=grid.dtype)
    sizes = []
    for d in range(drops):
        i, j = np.random.randint(0, n, size=2)
        grid[i, j] += 1
        sizes.append(relax(grid, work))
    print("avalanches", sum(1 for s in sizes if s > 0), "largest", max(sizes))
    return sizes


def make_inputs(size="small"):
    n = 5 if size == "small" else 20
    return dict(grid=np.full((n, n), 3, dtype=np.int64), drops=6, seed=3)


if __name__ == "__main__":
    inputs = make_inputs("large")
    sizes = drive(**inputs)
    print(sizes, int(inputs["grid"].sum()))
