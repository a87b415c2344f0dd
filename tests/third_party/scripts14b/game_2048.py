"""The 2048 sliding-tile game with a greedy player (the pattern of 2048 clones and their
expectimax-lite bots): an int64 4x4 board of tile exponents, a row slid and merged left by a
helper that compacts nonzeros into a fresh row and merges equal neighbours once, the other
three moves by `np.rot90` views and `.copy()`, a move rejected when the board does not change
(`np.array_equal`), new tiles at a drawn empty cell (the k-th free cell by `np.argmax(np.cumsum(free) > k)`,
written through a `reshape(-1)` view; first written with `np.flatnonzero` and `.flat`:
NPR004 and NPR205), a 2 or a 4 by a draw, the score summed from merges, a greedy policy that tries
each move on a copy and scores empty cells and monotone rows, and games played until no move
is left, with a progress print.
"""
import numpy as np


def slide_row(row):
    # one row moved left: returns the new row and the merge score
    out = np.zeros_like(row)
    score = 0
    k = 0
    last = 0
    for v in row:
        if v == 0:
            continue
        if last == v:
            out[k - 1] = v + 1
            score += 2 ** (v + 1)
            last = 0
        else:
            out[k] = v
            k += 1
            last = v
    return out, score


def move(board, direction):
    # direction 0 left, 1 up, 2 right, 3 down: rotate, slide left, rotate back
    rotated = np.rot90(board, direction).copy()
    score = 0
    for r in range(4):
        rotated[r], gained = slide_row(rotated[r])
        score += gained
    return np.rot90(rotated, -direction).copy(), score


def spawn(board, rng):
    free = board.reshape(-1) == 0
    n_free = int(free.sum())
    if n_free == 0:
        return False
    k = rng.integers(n_free)
    cell = np.argmax(np.cumsum(free) > k)
    flat = board.reshape(-1)
    flat[cell] = 1 if rng.random() < 0.9 else 2
    return True


def heuristic(board):
    empty = np.count_nonzero(board == 0)
    mono = 0
    for r in range(4):
        d = np.diff(board[r])
        mono += max(np.sum(d >= 0), np.sum(d <= 0))
    return empty * 10 + mono + board.max()


def best_move(board):
    best, choice = -1, -1
    for d in range(4):
        nxt, score = move(board, d)
        if np.array_equal(nxt, board):
            continue
        value = heuristic(nxt) + score / 64.0
        if value > best:
            best, choice = value, d
    return choice


def play(board, rng, max_moves=300, report=50):
    total = 0
    moves = 0
    while moves < max_moves:
        d = best_move(board)
        if d < 0:
            break
        board[...], gained = move(board, d)
        total += gained
        moves += 1
        spawn(board, rng)
        if moves % report == 0:
            print("move", moves, "score", total, "max tile", 2 ** board.max())
    return total, moves


START = np.array([[1, 1, 0, 2], [0, 2, 2, 0], [3, 0, 3, 1], [0, 0, 0, 1]], dtype=np.int64)

CHECKS = {
    "slide_row": lambda: (np.array([1, 1, 1, 1]),),
    "slide_row#gaps": lambda: (np.array([0, 2, 0, 2]),),
    "move": lambda: (START, 1),
    "move#right": lambda: (START, 2),
    "heuristic": lambda: (START,),
    "best_move": lambda: (START,),
    "spawn": lambda: (START.copy(), np.random.default_rng(2)),
    "spawn#full": lambda: (np.arange(1, 17).reshape(4, 4), np.random.default_rng(2)),
    "play": lambda: (START.copy(), np.random.default_rng(6), 12, 5),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2048)
    for game in range(2):
        board = np.zeros((4, 4), dtype=np.int64)
        spawn(board, rng)
        spawn(board, rng)
        score, n = play(board, rng, 120, 40)
        print("game", game, "score", score, "moves", n, "max", 2 ** board.max(), type(score).__name__)
        print(board)
