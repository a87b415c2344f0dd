"""Two-player zero-sum matrix games solved by fictitious play and by replicator dynamics (the
pattern of game-theory course scripts): Rock-Paper-Scissors and a random payoff matrix from
module set-up, int64 counts of each player's past actions updated in place, best responses by
`np.argmax` of the expected payoff against the empirical mixture (ties broken by the first
index, as NumPy does), the exploitability gap printed every N rounds, a `while` on that gap,
discrete-time replicator dynamics in float32 with a renormalisation in place, a pure
saddle-point check (first written returning a tuple or None, as data decides), and a 2x2 game solved in closed form
with a division guarded by `np.errstate`.
"""
import numpy as np

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=np.int64)
RANDOM = np.random.default_rng(3).integers(-5, 6, size=(4, 5)).astype(np.float64)


def gap(A, x, y):
    # how much each player could gain by deviating: zero at an equilibrium
    return float((A @ y).max() - (x @ A).min())


def fictitious_play(A, rounds, counts_row, counts_col, report=0):
    m, n = A.shape
    for t in range(rounds):
        x = counts_row / counts_row.sum()
        y = counts_col / counts_col.sum()
        i = np.argmax(A @ y)
        j = np.argmin(x @ A)
        counts_row[i] += 1
        counts_col[j] += 1
        if report and (t + 1) % report == 0:
            print("round", t + 1, "gap", round(gap(A, x, y), 6))
    return counts_row / counts_row.sum(), counts_col / counts_col.sum()


def play_until(A, tol, max_rounds):
    cr = np.ones(A.shape[0], dtype=np.int64)
    cc = np.ones(A.shape[1], dtype=np.int64)
    t = 0
    g = np.inf
    while g > tol and t < max_rounds:
        x, y = fictitious_play(A, 10, cr, cc)
        g = gap(A, x, y)
        t += 10
    return t, g, cr


def replicator(A, x, y, steps, dt):
    A32 = A.astype(np.float32)
    for _ in range(steps):
        fx = A32 @ y
        fy = -(x @ A32)
        x *= 1.0 + dt * (fx - x @ fx)
        y *= 1.0 + dt * (fy - y @ fy)
        x /= x.sum()
        y /= y.sum()
    return x, y


def saddle_or_none(A):
    row_min = A.min(axis=1)
    col_max = A.max(axis=0)
    lower, upper = row_min.max(), col_max.min()
    if lower == upper:
        return int(np.argmax(row_min)), int(np.argmin(col_max)), lower
    return None


def saddle_point(A):
    row_min = A.min(axis=1)
    col_max = A.max(axis=0)
    lower, upper = row_min.max(), col_max.min()
    return lower == upper, int(np.argmax(row_min)), int(np.argmin(col_max)), lower


def solve_2x2(A):
    a, b, c, d = A[0, 0], A[0, 1], A[1, 0], A[1, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (d - c) / (a - b - c + d)
        q = (d - b) / (a - b - c + d)
        v = (a * d - b * c) / (a - b - c + d)
    return p, q, v


CHECKS = {
    "gap": lambda: (RANDOM, np.full(4, 0.25), np.full(5, 0.2)),
    "fictitious_play": lambda: (RPS, 30, np.array([1, 0, 0]), np.array([0, 1, 0]), 10),
    "fictitious_play#random": lambda: (RANDOM, 50, np.ones(4, dtype=np.int64), np.ones(5, dtype=np.int64)),
    "play_until": lambda: (RPS, 0.05, 400),
    "replicator": lambda: (RPS, np.array([0.5, 0.3, 0.2], dtype=np.float32),
                           np.array([0.2, 0.2, 0.6], dtype=np.float32), 40, 0.05),
    "saddle_or_none": lambda: (np.array([[3, 1, 4], [2, 2, 5], [0, 1, 6]]),),
    "saddle_or_none#none": lambda: (RPS,),
    "saddle_point": lambda: (np.array([[3, 1, 4], [2, 2, 5], [0, 1, 6]]),),
    "saddle_point#none": lambda: (RPS,),
    "solve_2x2": lambda: (np.array([[2.0, -1.0], [-1.0, 1.0]]),),
    "solve_2x2#degenerate": lambda: (np.array([[1, 1], [1, 1]]),),
}

if __name__ == "__main__":
    x, y = fictitious_play(RPS, 300, np.array([1, 0, 0]), np.array([0, 1, 0]), 100)
    print("rps mixtures", np.round(x, 4), np.round(y, 4))
    t, g, cr = play_until(RANDOM, 0.1, 2000)
    print("random game rounds", t, "gap", g, "counts", cr, cr.dtype)
    xr, yr = replicator(RPS, np.array([0.5, 0.3, 0.2], dtype=np.float32), np.array([0.2, 0.2, 0.6], dtype=np.float32), 200, 0.05)
    print("replicator", xr.dtype, np.round(xr.astype(np.float64), 4))
    print("saddle", saddle_point(np.array([[3, 1, 4], [2, 2, 5], [0, 1, 6]])), saddle_point(RPS))
    print("2x2", solve_2x2(np.array([[2.0, -1.0], [-1.0, 1.0]])), solve_2x2(np.array([[1, 1], [1, 1]])))
