"""Agent-based SIR: agents random-walk on a periodic grid (int32 positions, moves drawn with
np.random.randint), states in an int8 array (0 S, 1 I, 2 R), infection pressure from an
occupancy grid built by np.add.at of the infected, per-agent infection and recovery draws,
an int16 days-infected counter incremented in place, daily counts written into an int64
history array, the run stopping early when nobody is infected.
"""
import numpy as np

S, I, R = 0, 1, 2
GRID = 16
N_AGENTS = 150
BETA = 0.35
GAMMA = 0.1
MOVES = np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]], dtype=np.int32)

np.random.seed(99)
POS0 = np.random.randint(0, GRID, size=(N_AGENTS, 2)).astype(np.int32)


def move(pos):
    step = MOVES[np.random.randint(0, 5, size=pos.shape[0])]
    pos += step
    pos %= GRID


def pressure(pos, state):
    occ = np.zeros((GRID, GRID), dtype=np.int32)
    infected = (state == I).astype(np.int32)
    np.add.at(occ, (pos[:, 0], pos[:, 1]), infected)
    return occ[pos[:, 0], pos[:, 1]]


def day(pos, state, days_sick):
    move(pos)
    k = pressure(pos, state)
    p_inf = 1.0 - (1.0 - BETA) ** k
    u = np.random.random(state.size)
    new_inf = (state == S) & (u < p_inf)
    sick = state == I
    days_sick[sick] += 1
    recover = sick & (np.random.random(state.size) < GAMMA)
    state[new_inf] = I
    state[recover] = R
    return int(new_inf.sum())


def run(pos, state, days, seed):
    np.random.seed(seed)
    days_sick = np.zeros(state.size, dtype=np.int16)
    history = np.zeros((days, 3), dtype=np.int64)
    total_new = 0
    last = days
    for t in range(days):
        total_new += day(pos, state, days_sick)
        history[t] = np.bincount(state, minlength=3)
        if history[t, I] == 0:
            last = t + 1
            break
    return history, total_new, last, days_sick


def initial_state(n, n_inf):
    state = np.zeros(n, dtype=np.int8)
    state[:n_inf] = I
    return state


CHECKS = {
    "run": lambda: (POS0.copy(), initial_state(N_AGENTS, 5), 12, 3),
    "run#fade": lambda: (POS0[:30].copy(), initial_state(30, 1), 40, 8),
    "pressure": lambda: (POS0[:20].copy(), (np.arange(20) % 3).astype(np.int8)),
    "initial_state": lambda: (12, 3),
}

if __name__ == "__main__":
    for seed in (1, 2):
        pos = POS0.copy()
        state = initial_state(N_AGENTS, 4)
        history, total, last, days_sick = run(pos, state, 30, seed)
        print("seed", seed, "days", last, "infected in total", total, "peak", history[:, I].max())
        for t in range(0, last, 6):
            print(" ", t, history[t])
        print("  mean days sick", repr(days_sick[state == R].mean()), days_sick.dtype, state.dtype)
