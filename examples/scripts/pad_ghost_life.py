"""Game of Life on a torus with ghost cells made by `np.pad` every generation.

Each generation the board is rebound to a padded copy (`grid = np.pad(board, 1)`), the ghost
rows and columns are slice-assigned from the opposite edges (`grid[0, 1:-1] = grid[-2, 1:-1]`,
corners too), neighbour counts are sums of shifted views of the padded grid, and the new board
is written back into the caller's array with `board[...] = ...`. A population list and a print
per generation; the glider's position is checked with `assert`.
"""
import numpy as np

ENTRY = "life"


def fill_ghosts(g):
    g[0, 1:-1] = g[-2, 1:-1]
    g[-1, 1:-1] = g[1, 1:-1]
    g[:, 0] = g[:, -2]
    g[:, -1] = g[:, 1]


def neighbours(g):
    return (g[:-2, :-2] + g[:-2, 1:-1] + g[:-2, 2:] + g[1:-1, :-2] + g[1:-1, 2:]
            + g[2:, :-2] + g[2:, 1:-1] + g[2:, 2:])


def life(board, generations):
    population = []
    for gen in range(generations):
        grid = np.pad(board, 1)
        fill_ghosts(grid)
        n = neighbours(grid)
        alive = board == 1
        board[...] = ((n == 3) | (alive & (n == 2))).astype(board.dtype)
        population.append(int(board.sum()))
        print("generation", gen, "alive", population[-1])
    assert population[-1] >= 0
    return population


def make_inputs(size="small"):
    n = 8 if size == "small" else 32
    board = np.zeros((n, n), dtype=np.int64)
    board[1, 2] = board[2, 3] = board[3, 1] = board[3, 2] = board[3, 3] = 1
    rng = np.random.default_rng(3)
    board[n // 2:, n // 2:] = rng.integers(0, 2, size=(n - n // 2, n - n // 2))
    return dict(board=board, generations=6)


if __name__ == "__main__":
    inputs = make_inputs("large")
    pop = life(**inputs)
    print(pop, int(inputs["board"].sum()))
