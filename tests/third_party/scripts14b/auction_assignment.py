"""Bertsekas' auction algorithm for the assignment problem, with epsilon scaling (the pattern
of operations-research teaching scripts): an int64 benefit matrix, prices as float64, the
unassigned bidders kept in an int64 queue array with head and tail counters in a `while`
loop, each bid by the best and second-best value (`np.argmax` then the row with that column
set to `-np.inf`), the displaced owner pushed back, -1 for nobody, a brute-force check on a
small case by a hand-written permutation loop (Heap's algorithm with swaps in place), and a
greedy baseline that writes its assignment into the caller's array.
"""
import numpy as np

RNG = np.random.default_rng(21)
BENEFIT = RNG.integers(0, 60, size=(8, 8))
SMALL = RNG.integers(0, 20, size=(5, 5))


def auction(benefit, eps, prices, max_bids=10000):
    n = benefit.shape[0]
    owner = np.full(n, -1, dtype=np.int64)
    assigned = np.full(n, -1, dtype=np.int64)
    queue = np.empty(4 * n + max_bids, dtype=np.int64)
    queue[:n] = np.arange(n)
    head, tail = 0, n
    bids = 0
    while head < tail and bids < max_bids:
        i = queue[head]
        head += 1
        values = benefit[i] - prices
        j = int(np.argmax(values))
        best = values[j]
        values[j] = -np.inf
        second = values.max() if n > 1 else best
        prices[j] += best - second + eps
        prev = owner[j]
        owner[j] = i
        assigned[i] = j
        if prev >= 0:
            assigned[prev] = -1
            queue[tail] = prev
            tail += 1
        bids += 1
    return assigned, bids


def scaled_auction(benefit, eps_final, factor=4.0):
    n = benefit.shape[0]
    prices = np.zeros(n)
    eps = float(np.abs(benefit).max()) / 2.0
    total_bids = 0
    while True:
        assigned, bids = auction(benefit, eps, prices)
        total_bids += bids
        if eps <= eps_final:
            break
        eps = max(eps / factor, eps_final)
    return assigned, prices, total_bids


def total(benefit, assigned):
    return benefit[np.arange(benefit.shape[0]), assigned].sum()


def brute_force(benefit):
    n = benefit.shape[0]
    perm = np.arange(n)
    c = np.zeros(n, dtype=np.int64)
    best = total(benefit, perm)
    best_perm = perm.copy()
    i = 0
    while i < n:
        if c[i] < i:
            if i % 2 == 0:
                perm[0], perm[i] = perm[i], perm[0]
            else:
                perm[c[i]], perm[i] = perm[i], perm[c[i]]
            value = total(benefit, perm)
            if value > best:
                best = value
                best_perm[:] = perm
            c[i] += 1
            i = 0
        else:
            c[i] = 0
            i += 1
    return best, best_perm


def greedy(benefit, out):
    taken = np.zeros(benefit.shape[1], dtype=bool)
    for i in np.argsort(-benefit.max(axis=1), kind="stable"):
        row = np.where(taken, -1, benefit[i])
        j = np.argmax(row)
        out[i] = j
        taken[j] = True
    return total(benefit, out)


CHECKS = {
    "auction": lambda: (BENEFIT, 1.0, np.zeros(8)),
    "scaled_auction": lambda: (BENEFIT, 1.0 / 9.0),
    "total": lambda: (BENEFIT, np.arange(8)[::-1].copy()),
    "brute_force": lambda: (SMALL,),
    "greedy": lambda: (BENEFIT, np.zeros(8, dtype=np.int64)),
}

if __name__ == "__main__":
    assigned, prices, bids = scaled_auction(BENEFIT, 1.0 / 9.0)
    print("auction", assigned, "value", total(BENEFIT, assigned), "bids", bids, type(bids).__name__)
    print("prices", np.round(prices, 4), prices.dtype)
    out = np.zeros(8, dtype=np.int64)
    print("greedy value", greedy(BENEFIT, out), out)
    a5, _, _ = scaled_auction(SMALL, 1.0 / 6.0)
    best, perm = brute_force(SMALL)
    print("small auction", total(SMALL, a5), "brute force", best, perm, type(best).__name__)
