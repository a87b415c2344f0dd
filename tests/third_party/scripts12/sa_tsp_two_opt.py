"""Simulated annealing for a small travelling salesman tour: cities on a seeded grid, the distance
matrix by broadcasting, a 2-opt move reversing a stretch of the tour in place
(`tour[i:j + 1] = tour[i:j + 1][::-1]`, an overlapping reversed read: with i, j drawn, refused
NPR111 in the annealing loop; the run uses the same reversal by np.where over the whole tour,
the helper picked by a flag), an or-opt move shifting one
city by slice copies, the tour length kept incrementally as a Python float and checked against a
full recount (`length = length + delta`: written `length += delta` the loop's `if length < best_len:
best_len = length` is refused NPR030, kept as `lowest_prefix`), a geometric cooling schedule, the best tour copied into an array handed in, the
temperature and length printed every 200 steps.
"""
import numpy as np

np.random.seed(3)
N_CITIES = 14
CITIES = np.random.rand(N_CITIES, 2) * 10.0
DIST = np.sqrt(((CITIES[:, None, :] - CITIES[None, :, :]) ** 2).sum(axis=2))
MOVES = np.random.randint(0, N_CITIES, size=(600, 2))
ACCEPT = np.random.rand(600)


def tour_length(tour, dist):
    total = 0.0
    for k in range(tour.shape[0]):
        total += dist[tour[k - 1], tour[k]]
    return total


def two_opt_delta(tour, dist, i, j):
    n = tour.shape[0]
    a, b = tour[i - 1], tour[i]
    c, d = tour[j], tour[(j + 1) % n]
    return dist[a, c] + dist[b, d] - dist[a, b] - dist[c, d]


def reverse_segment(tour, i, j):
    tour[i:j + 1] = tour[i:j + 1][::-1]


def reverse_where(tour, i, j):
    # the same reversal on the whole tour: positions i..j read from i + j - k
    k = np.arange(tour.shape[0])
    src = np.where((k >= i) & (k <= j), i + j - k, k)
    tour[:] = tour[src]


def shift_city(tour, i, j):
    # move the city at i to position j (i < j) by shifting the stretch between left by one
    city = tour[i]
    tour[i:j] = tour[i + 1:j + 1]
    tour[j] = city


def anneal(tour, dist, moves, accept, t0, cooling, best, whole=True):
    flip = reverse_where if whole else reverse_segment
    length = tour_length(tour, dist)
    best[:] = tour
    best_len = length
    temp = t0
    taken = 0
    for step in range(moves.shape[0]):
        i, j = moves[step, 0], moves[step, 1]
        if i > j:
            i, j = j, i
        if i == 0 or j - i < 2:
            temp *= cooling
            continue
        delta = two_opt_delta(tour, dist, i, j)
        if delta < 0.0 or accept[step] < np.exp(-delta / temp):
            flip(tour, i, j)
            length = length + delta
            taken += 1
            if length < best_len:
                best_len = length
                best[:] = tour
        temp *= cooling
        if step % 200 == 0:
            print("step", step, "T", repr(round(temp, 9)), "len", repr(round(length, 9)))
    return best_len, taken


def lowest_prefix(deltas, start):
    # the running length kept with `+=` and the lowest seen: refused NPR030 (see the docstring)
    length = start
    lowest = start
    for k in range(deltas.shape[0]):
        length += deltas[k]
        if length < lowest:
            lowest = length
    return lowest


def polish(tour, dist, sweeps):
    moved = 0
    for s in range(sweeps):
        for i in range(1, tour.shape[0] - 1):
            old = tour_length(tour, dist)
            trial = tour.copy()
            shift_city(trial, i, i + 1)
            if tour_length(trial, dist) < old - 1e-12:
                tour[:] = trial
                moved += 1
    return moved


CHECKS = {
    "anneal": lambda: (np.arange(N_CITIES), DIST.copy(), MOVES.copy(), ACCEPT.copy(), 2.0, 0.995,
                       np.zeros(N_CITIES, dtype=np.int64)),
    "anneal#slices": lambda: (np.arange(N_CITIES), DIST.copy(), MOVES[:50].copy(), ACCEPT[:50].copy(), 2.0, 0.995,
                              np.zeros(N_CITIES, dtype=np.int64), False),
    "reverse_segment": lambda: (np.arange(10), 2, 7),
    "reverse_where": lambda: (np.arange(10), 2, 7),
    "shift_city": lambda: (np.arange(10) * 3, 1, 6),
    "tour_length": lambda: (np.random.RandomState(1).permutation(N_CITIES), DIST.copy()),
    "lowest_prefix": lambda: (np.array([0.5, -2.0, 1.0, -0.25]), 3.0),
    "polish": lambda: (np.random.RandomState(2).permutation(N_CITIES), DIST.copy(), 2),
}

if __name__ == "__main__":
    tour = np.arange(N_CITIES)
    best = np.empty(N_CITIES, dtype=np.int64)
    print("start", repr(round(tour_length(tour, DIST), 9)))
    best_len, taken = anneal(tour, DIST, MOVES, ACCEPT, 2.0, 0.995, best)
    print("taken", taken, "best", repr(round(best_len, 9)))
    print("recount", repr(round(tour_length(best, DIST), 9)))
    moved = polish(best, DIST, 2)
    print("polished", moved, repr(round(tour_length(best, DIST), 9)))
    print(best.tolist())
