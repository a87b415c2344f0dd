"""Conway's Game of Life on a periodic (toroidal) board.

Domain: cellular automata. Neighbour counts come from eight np.roll shifts,
births and survivals are computed with boolean masks on an int32 board, two
board buffers are swapped every generation, and an int64 age array counts
how long each cell has been alive (wrapping like an 8-bit counter with %=).
Gliders are stamped into the board through slice and flat views, one of them
mirrored with a negative-step slice.
"""
import numpy as np

ENTRY = "simulate"

OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
GLIDER = np.array([[0, 1, 0],
                   [0, 0, 1],
                   [1, 1, 1]], dtype=np.int32)
AGE_WRAP = 256
BLOCK = 4          # block size of the coarse density diagnostic


def stamp_gliders(board, seed_idx):
    board[0:3, 0:3] = GLIDER
    board[0:3, 6:3:-1] = GLIDER         # mirrored glider (columns 6, 5, 4)
    board[-3, ::3] = 1                  # dotted line, every third column
    flat = board.ravel()
    flat[seed_idx] = 1                  # random extra live cells


def count_neighbours(board, counts):
    counts.fill(0)
    for k in range(8):
        counts += np.roll(board, OFFSETS[k], axis=(0, 1))


def step(board, counts, new):
    count_neighbours(board, counts)
    alive = board == 1
    new.fill(0)
    new[alive & ((counts == 2) | (counts == 3))] = 1
    new[~alive & (counts == 3)] = 1


def simulate(board, age, seed_idx, steps):
    """Run `steps` generations, mutating board and age in place.

    Returns (population history, coarse block density of the final board)."""
    ny, nx = board.shape
    stamp_gliders(board, seed_idx)
    counts = np.zeros_like(board)
    cur = board
    nxt = np.zeros_like(board)
    population = np.zeros(steps, dtype=np.int64)
    for k in range(steps):
        step(cur, counts, nxt)
        cur, nxt = nxt, cur
        live = cur == 1
        age[live] += 1
        age[~live] = 0
        age %= AGE_WRAP
        population[k] = np.sum(cur)
    np.copyto(board, cur)
    rows, cols = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    rows //= BLOCK
    cols //= BLOCK
    nbx = (nx + BLOCK - 1) // BLOCK
    density = np.zeros(((ny + BLOCK - 1) // BLOCK) * nbx, dtype=np.int64)
    np.add.at(density, (rows * nbx + cols).ravel(), board.ravel())
    return population, density


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, steps, nseed = 10, 2, 12
    else:
        n, steps, nseed = 256, 500, 20000
    board = np.zeros((n, n), dtype=np.int32)
    age = np.zeros((n, n), dtype=np.int64)
    seed_idx = rng.integers(0, n * n, size=nseed)
    return dict(board=board, age=age, seed_idx=seed_idx, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    pop, density = simulate(**inputs)
    print(f"initial population = {pop[0]}")
    print(f"final population   = {pop[-1]}")
    print(f"max age            = {inputs['age'].max()}")
    print(f"max block density  = {density.max()}")
