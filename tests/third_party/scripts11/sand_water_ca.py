"""A falling-sand cellular automaton on an int8 grid (0 air, 1 sand, 2 water, 3 wall): cells
visited bottom-up in a random column order drawn per row (rng.permutation), sand falls straight
down or slides diagonally into air or water (swapping with water), water falls or flows
sideways in a direction drawn per cell, a `moved` bool grid so a cell moves at most once a step,
a source adding sand and water every few steps through `.flat` indices, counts of each material
by np.bincount kept in an int64 history, the grid printed as text rows at the end.
"""
import numpy as np

H, W = 14, 12
AIR, SAND, WATER, WALL = 0, 1, 2, 3
CHARS = np.array([".", "#", "~", "X"])


def initial():
    g = np.zeros((H, W), dtype=np.int8)
    g[-1, :] = WALL
    g[:, 0] = WALL
    g[:, -1] = WALL
    g[9, 3:7] = WALL
    g[2:4, 4:7] = SAND
    g[1, 2:5] = WATER
    return g


def swap(grid, moved, i, j, i2, j2):
    grid[i, j], grid[i2, j2] = grid[i2, j2], grid[i, j]
    moved[i2, j2] = True


def step(grid, rng):
    moved = np.zeros(grid.shape, dtype=bool)
    h, w = grid.shape
    for i in range(h - 2, -1, -1):
        order = rng.permutation(np.arange(1, w - 1))
        for j in order:
            c = grid[i, j]
            if moved[i, j] or c == AIR or c == WALL:
                continue
            below = grid[i + 1, j]
            if c == SAND:
                if below == AIR or below == WATER:
                    swap(grid, moved, i, j, i + 1, j)
                    continue
                side = 1 if rng.random() < 0.5 else -1
                for dj in (side, -side):
                    t = grid[i + 1, j + dj]
                    if t == AIR or t == WATER:
                        swap(grid, moved, i, j, i + 1, j + dj)
                        break
            else:
                if below == AIR:
                    swap(grid, moved, i, j, i + 1, j)
                    continue
                dj = 1 if rng.random() < 0.5 else -1
                if grid[i, j + dj] == AIR:
                    swap(grid, moved, i, j, i, j + dj)
                elif grid[i, j - dj] == AIR:
                    swap(grid, moved, i, j, i, j - dj)
    return moved.sum()


def run(grid, nsteps, seed, every=3):
    rng = np.random.default_rng(seed)
    history = np.zeros((nsteps, 4), dtype=np.int64)
    total_moves = 0
    for n in range(nsteps):
        if n % every == 0:
            grid.flat[W + 5] = SAND
            grid.flat[W + 8] = WATER
        total_moves += int(step(grid, rng))
        history[n] = np.bincount(grid.ravel(), minlength=4)
    return history, total_moves


def show(grid):
    for row in CHARS[grid]:
        print("".join(row))


CHECKS = {
    "step": lambda: (initial(), np.random.default_rng(1)),
    "run": lambda: (initial(), 6, 4),
    "run#every2": lambda: (initial(), 5, 9, 2),
    "swap": lambda: (initial(), np.zeros((H, W), dtype=bool), 2, 4, 3, 4),
}

if __name__ == "__main__":
    grid = initial()
    history, moves = run(grid, 25, 2024)
    print("moves", moves, history.dtype)
    print(history[::5])
    show(grid)
