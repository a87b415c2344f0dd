"""Diffusion-limited aggregation on an int8 lattice: walkers launched one at a time from a random
edge point (`np.random.seed` + `np.random.randint`), stepping in a `while True` loop with a move
table indexed by a draw, periodic wrap by `%`, sticking when any of the four neighbours is
occupied (`grid[(i + 1) % n, j]` reads), a step budget with `break`, the particle count and the
radius of gyration printed every few particles.
"""
import numpy as np

MOVES = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])


def touching(grid, i, j):
    n = grid.shape[0]
    return (grid[(i + 1) % n, j] + grid[(i - 1) % n, j] + grid[i, (j + 1) % n] + grid[i, (j - 1) % n]) > 0


def walk(grid, max_steps):
    n = grid.shape[0]
    i = np.random.randint(n)
    j = 0
    steps = 0
    while True:
        if touching(grid, i, j):
            grid[i, j] = 1
            return steps
        d = MOVES[np.random.randint(4)]
        i = (i + d[0]) % n
        j = (j + d[1]) % n
        steps += 1
        if steps >= max_steps:
            return -1


def grow(grid, nparticles, max_steps, every):
    stuck = 0
    lost = 0
    total_steps = 0
    for p in range(nparticles):
        s = walk(grid, max_steps)
        if s < 0:
            lost += 1
        else:
            stuck += 1
            total_steps += s
        if (p + 1) % every == 0:
            ii, jj = np.nonzero(grid)
            rg = np.sqrt(((ii - ii.mean()) ** 2 + (jj - jj.mean()) ** 2).mean())
            print(p + 1, "stuck", stuck, "Rg", f"{rg:.6f}")
    return grid, stuck, lost, total_steps


def make_grid(n=15):
    grid = np.zeros((n, n), dtype=np.int8)
    grid[n // 2, n // 2] = 1
    return grid


def seeded(n, nparticles):
    np.random.seed(2)
    return grow(make_grid(n), nparticles, 300, 5)


CHECKS = {"seeded": lambda: (11, 10), "touching": lambda: (make_grid(7), 3, 2)}

if __name__ == "__main__":
    grid, stuck, lost, total = seeded(15, 25)
    print(int(grid.sum()), stuck, lost, total, grid.dtype)
