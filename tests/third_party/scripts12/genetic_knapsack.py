"""A genetic algorithm for a 0/1 knapsack, as evolutionary-computing course scripts write it:
int8 genomes, fitness with a penalty for overweight (`fit[over] = -excess[over]`), tournament
selection by rng.integers pairs and np.where, uniform crossover through a boolean mask
(`child[m] = other[m]`), bit-flip mutation `pop[flip] ^= 1`, elitism keeping the best rows by
np.argsort(kind="stable") written back with `pop[:ELITE] = ...`, a repair step dropping the
worst value-per-weight items in a loop, the best fitness per generation printed every 5.
"""
import numpy as np

ITEMS = 12
ELITE = 2
_r = np.random.default_rng(21)
VALUES = _r.integers(5, 40, size=ITEMS)
WEIGHTS = _r.integers(3, 20, size=ITEMS)
CAP = int(WEIGHTS.sum() // 2)


def fitness(pop, values, weights, cap):
    total_v = pop @ values
    total_w = pop @ weights
    fit = total_v.astype(np.float64)
    over = total_w > cap
    fit[over] = -(total_w[over] - cap).astype(np.float64)
    return fit


def tournament(fit, rng, n):
    a = rng.integers(0, fit.size, size=n)
    b = rng.integers(0, fit.size, size=n)
    return np.where(fit[a] >= fit[b], a, b)


def crossover(parents, pop, rng, out):
    n = out.shape[0]
    for k in range(0, n - 1, 2):
        p, q = parents[k], parents[k + 1]
        m = rng.random(pop.shape[1]) < 0.5
        out[k] = pop[p]
        out[k + 1] = pop[q]
        out[k][m] = pop[q][m]
        out[k + 1][m] = pop[p][m]
    if n % 2:
        out[n - 1] = pop[parents[n - 1]]


def repair(genome, values, weights, cap):
    ratio = values / weights
    order = np.argsort(ratio, kind="stable")
    dropped = 0
    for i in order:
        if genome @ weights <= cap:
            break
        if genome[i]:
            genome[i] = 0
            dropped += 1
    return dropped


def evolve(pop, values, weights, cap, rng, generations, p_mut):
    n = pop.shape[0]
    kids = np.empty_like(pop)
    best_hist = np.zeros(generations)
    for g in range(generations):
        fit = fitness(pop, values, weights, cap)
        rank = np.argsort(-fit, kind="stable")
        elite = pop[rank[:ELITE]].copy()
        parents = tournament(fit, rng, n)
        crossover(parents, pop, rng, kids)
        flip = rng.random(kids.shape) < p_mut
        kids[flip] ^= 1
        pop[:] = kids
        pop[:ELITE] = elite
        best_hist[g] = fit[rank[0]]
        if g % 5 == 0:
            print("gen", g, "best", best_hist[g], "mean", repr(round(float(fit.mean()), 9)))
    fit = fitness(pop, values, weights, cap)
    return int(np.argmax(fit)), best_hist


CHECKS = {
    "evolve": lambda: (np.random.default_rng(1).integers(0, 2, size=(10, ITEMS)).astype(np.int8), VALUES.copy(),
                       WEIGHTS.copy(), CAP, np.random.default_rng(2), 12, 0.05),
    "fitness": lambda: (np.random.default_rng(3).integers(0, 2, size=(8, ITEMS)).astype(np.int8), VALUES.copy(),
                        WEIGHTS.copy(), CAP),
    "repair": lambda: (np.ones(ITEMS, dtype=np.int8), VALUES.copy(), WEIGHTS.copy(), CAP),
    "crossover": lambda: (np.array([0, 3, 2, 1, 1]), np.arange(24, dtype=np.int8).reshape(4, 6), np.random.default_rng(7),
                          np.zeros((5, 6), dtype=np.int8)),
    "tournament": lambda: (np.array([3.0, -1.0, 7.0, 7.0, 2.0]), np.random.default_rng(8), 6),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    pop = rng.integers(0, 2, size=(16, ITEMS)).astype(np.int8)
    best, hist = evolve(pop, VALUES, WEIGHTS, CAP, rng, 30, 0.04)
    genome = pop[best].copy()
    dropped = repair(genome, VALUES, WEIGHTS, CAP)
    print("cap", CAP, "best row", best, "dropped", dropped)
    print("genome", genome.tolist(), "value", int(genome @ VALUES), "weight", int(genome @ WEIGHTS))
    print("history", hist[::6].tolist())
