"""A stochastic chain-binomial SIR over a ring of towns (the Reed-Frost / metapopulation pattern
of epidemiology teaching scripts): int64 compartments per town, the force of infection from the
town's own prevalence and its neighbours' through `np.roll`, new infections by
`np.random.binomial(S, p)` and recoveries by `np.random.binomial(I, GAMMA)` with the legacy
seeded global generator, `S -= new_inf; I += new_inf - new_rec; R += new_rec` in place, a
`while I.sum() > 0` loop capped by a day count, the epidemic curve written into a preallocated
int64 array, first-arrival days by a masked store into a -1-filled array, a final-size
distribution over many runs by `np.bincount`, and a Reed-Frost helper with a tuple state.
"""
import numpy as np

TOWNS = 6
BETA, GAMMA, MIX = 0.35, 0.2, 0.1


def infection_prob(S, I, N):
    prev = I / N
    local = (1.0 - MIX) * prev + 0.5 * MIX * (np.roll(prev, 1) + np.roll(prev, -1))
    return 1.0 - np.exp(-BETA * local)


def step(S, I, R, N):
    p = infection_prob(S, I, N)
    new_inf = np.random.binomial(S, p)
    new_rec = np.random.binomial(I, GAMMA)
    S -= new_inf
    I += new_inf - new_rec
    R += new_rec
    return int(new_inf.sum())


def epidemic(S, I, R, curve, arrival, max_days):
    N = S + I + R
    day = 0
    arrival[:] = -1
    arrival[I > 0] = 0
    while I.sum() > 0 and day < max_days:
        new = step(S, I, R, N)
        day += 1
        curve[day] = new
        arrival[(arrival < 0) & (I > 0)] = day
        if day % 25 == 0:
            print("day", day, "infected", int(I.sum()), "recovered", int(R.sum()))
    return day


def reed_frost(s0, i0, q, rng):
    s, i = s0, i0
    total = i0
    while i > 0:
        new = rng.binomial(s, 1.0 - q ** i)
        s, i = s - new, new
        total += new
    return total


def seeded_towns(pop):
    S = np.full(TOWNS, pop, dtype=np.int64)
    I = np.zeros(TOWNS, dtype=np.int64)
    R = np.zeros(TOWNS, dtype=np.int64)
    S[0] -= 3
    I[0] = 3
    return S, I, R


def final_sizes(runs, n, q, seed):
    rng = np.random.default_rng(seed)
    sizes = np.zeros(runs, dtype=np.int64)
    for k in range(runs):
        sizes[k] = reed_frost(n - 1, 1, q, rng)
    return np.bincount(sizes, minlength=n + 1)


def outbreak(seed, pop, max_days):
    np.random.seed(seed)
    S, I, R = seeded_towns(pop)
    curve = np.zeros(max_days + 1, dtype=np.int64)
    arrival = np.empty(TOWNS, dtype=np.int64)
    days = epidemic(S, I, R, curve, arrival, max_days)
    return days, curve, arrival, R / (S + R)


def step_seeded(seed, S, I, R, N):
    np.random.seed(seed)
    return step(S, I, R, N)


CHECKS = {
    "step_seeded": lambda: (3, np.array([90, 100, 50]), np.array([10, 0, 5]), np.zeros(3, dtype=np.int64),
                            np.array([100, 100, 55])),
    "outbreak": lambda: (4, 200, 60),
    "reed_frost": lambda: (20, 1, 0.9, np.random.default_rng(5)),
    "final_sizes": lambda: (30, 10, 0.85, 6),
    "infection_prob": lambda: (np.array([99.0, 100.0]), np.array([1.0, 0.0]), np.array([100.0, 100.0])),
}

if __name__ == "__main__":
    days, curve, arrival, attack = outbreak(2026, 500, 300)
    print("days", days, "peak day", int(np.argmax(curve)), "peak", int(curve.max()))
    print("arrival", arrival.tolist(), "attack", repr(np.round(attack, 4)))
    print("final sizes", final_sizes(200, 12, 0.85, 7).tolist())
