"""Cyclic cellular automaton on int64 states: neighbour counts by np.sum over shifted copies.

Each cell holds a state 0..NSTATES-1; a cell advances to (state + 1) % NSTATES when at least
THRESHOLD of its eight neighbours already hold that next state. The neighbour states come from
np.roll in a list comprehension stacked with np.stack and compared and summed along axis 0
(np.sum of booleans). The board is rewritten in place (`board[:] = new`), and the number of
changed cells and a state histogram (np.bincount) are printed each generation.
"""
import numpy as np

ENTRY = "run"
NSTATES = 4
THRESHOLD = 3
SHIFTS = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0)]


def step(board):
    nxt = (board + 1) % NSTATES
    neigh = np.stack([np.roll(board, s, axis=(0, 1)) for s in SHIFTS])
    count = np.sum(neigh == nxt[None, :, :], axis=0)
    return np.where(count >= THRESHOLD, nxt, board)


def run(board, generations):
    changed = np.zeros(generations, dtype=np.int64)
    for g in range(generations):
        new = step(board)
        changed[g] = np.count_nonzero(new != board)
        board[:] = new
        print(g, repr(int(changed[g])), repr(np.bincount(board.ravel(), minlength=NSTATES).tolist()))
    return changed


def make_inputs(size="small"):
    n = 10 if size == "small" else 48
    rng = np.random.default_rng(21)
    return dict(board=rng.integers(0, NSTATES, (n, n)), generations=8)


if __name__ == "__main__":
    inputs = make_inputs("large")
    changed = run(**inputs)
    print(repr(changed.tolist()), repr(int(inputs["board"].sum())))
