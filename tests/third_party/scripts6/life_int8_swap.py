"""Conway's Life on int8 boards with a second buffer swapped each generation
(`board, nxt = nxt, board`), neighbour counts by padded slices, the new state written by
boolean masks into a zeroed buffer (`nxt[...] = 0`), a population history, and an early
return when the board stops changing (`np.array_equal`).
"""
import numpy as np

N = 16
GENS = 30


def glider_gun_seed(n, seed):
    rng = np.random.default_rng(seed)
    b = (rng.random((n, n)) < 0.3).astype(np.int8)
    b[0, :] = 0
    b[-1, :] = 0
    return b


def neighbours(board):
    p = np.zeros((board.shape[0] + 2, board.shape[1] + 2), dtype=np.int8)
    p[1:-1, 1:-1] = board
    return (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
            + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])


def run(board, gens):
    nxt = np.empty_like(board)
    population = []
    for g in range(gens):
        n = neighbours(board)
        nxt[...] = 0
        nxt[(board == 1) & ((n == 2) | (n == 3))] = 1
        nxt[(board == 0) & (n == 3)] = 1
        if np.array_equal(nxt, board):
            return g, board, population
        board, nxt = nxt, board
        population.append(int(board.sum()))
    return gens, board, population


def still_life():
    b = np.zeros((6, 6), dtype=np.int8)
    b[2:4, 2:4] = 1
    return b


CHECKS = {
    "run": lambda: (glider_gun_seed(N, 4), GENS),
    "run#still": lambda: (still_life(), 10),
    "neighbours": lambda: (glider_gun_seed(N, 5),),
}

if __name__ == "__main__":
    b0 = glider_gun_seed(N, 4)
    g, b, pop = run(b0, GENS)
    print(g, b.dtype, int(b.sum()), pop[:8], b is b0, int(b0.sum()))
    g2, b2, pop2 = run(still_life(), 10)
    print(g2, pop2, int(b2.sum()))
