"""Tabular Q-learning on a grid world with walls, a pit and a goal: the Q table a float32 array
(states x 4 actions) updated in place `Q[s, a] += alpha * (target - Q[s, a])`, an epsilon-greedy
policy with ties broken by the first maximum (np.argmax) and exploration drawn with a Generator,
epsilon decayed multiplicatively per episode with a floor, moves looked up in a module-level
int array, walls in a bool grid, an episode capped in steps with a `break` at terminal states,
returns and episode lengths kept in preallocated arrays, the greedy policy printed as arrows.
"""
import numpy as np

ROWS, COLS = 5, 6
WALLS = np.zeros((ROWS, COLS), dtype=bool)
WALLS[1, 1:4] = True
WALLS[3, 2] = True
GOAL = (0, 5)
PIT = (2, 4)
START = (4, 0)
MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
ARROWS = "^>v<"
GAMMA = 0.95


def step_env(r, c, a):
    nr = r + MOVES[a, 0]
    nc = c + MOVES[a, 1]
    if nr < 0 or nr >= ROWS or nc < 0 or nc >= COLS or WALLS[nr, nc]:
        nr, nc = r, c
    if nr == GOAL[0] and nc == GOAL[1]:
        return nr, nc, 1.0, True
    if nr == PIT[0] and nc == PIT[1]:
        return nr, nc, -1.0, True
    return nr, nc, -0.01, False


def choose(Q, s, eps, rng):
    if rng.random() < eps:
        return rng.integers(4)
    return np.argmax(Q[s])


def train(Q, episodes, rng, alpha=0.5, eps=1.0, eps_decay=0.97, eps_min=0.05, max_steps=60):
    returns = np.zeros(episodes)
    lengths = np.zeros(episodes, dtype=np.int64)
    for ep in range(episodes):
        r, c = START
        total = 0.0
        for t in range(max_steps):
            s = r * COLS + c
            a = choose(Q, s, eps, rng)
            r, c, reward, done = step_env(r, c, a)
            s2 = r * COLS + c
            target = reward if done else reward + GAMMA * Q[s2].max()
            Q[s, a] += alpha * (target - Q[s, a])
            total += reward
            lengths[ep] = t + 1
            if done:
                break
        returns[ep] = total
        eps = max(eps * eps_decay, eps_min)
        if ep % 20 == 0:
            print("episode", ep, "return", repr(round(total, 6)), "eps", repr(round(eps, 6)))
    return returns, lengths, eps


def greedy_path(Q, max_steps=30):
    r, c = START
    path = np.full((max_steps + 1, 2), -1, dtype=np.int64)
    path[0] = r, c
    for t in range(max_steps):
        a = np.argmax(Q[r * COLS + c])
        r, c, _, done = step_env(r, c, a)
        path[t + 1] = r, c
        if done:
            break
    return path


def policy_text(Q):
    best = np.argmax(Q, axis=1).reshape(ROWS, COLS)
    rows = []
    for r in range(ROWS):
        rows.append("".join("#" if WALLS[r, c] else ARROWS[best[r, c]] for c in range(COLS)))
    return rows


CHECKS = {
    "train": lambda: (np.zeros((ROWS * COLS, 4), dtype=np.float32), 25, np.random.default_rng(0)),
    "train#greedy": lambda: {"Q": np.zeros((ROWS * COLS, 4), dtype=np.float32), "episodes": 10,
                             "rng": np.random.default_rng(1), "eps": 0.2, "max_steps": 30},
    "step_env": lambda: (1, 5, 0),
    "choose": lambda: (np.arange(120, dtype=np.float32).reshape(30, 4) % 7, 3, 0.3, np.random.default_rng(2)),
    "greedy_path": lambda: (np.tile(np.array([0.0, 1.0, 0.5, 0.0], dtype=np.float32), (ROWS * COLS, 1)),),
}

if __name__ == "__main__":
    rng = np.random.default_rng(7)
    Q = np.zeros((ROWS * COLS, 4), dtype=np.float32)
    returns, lengths, eps = train(Q, 150, rng)
    print("mean return last 50", repr(round(float(returns[-50:].mean()), 6)), "eps", repr(eps))
    print("lengths", lengths[-10:], lengths.dtype, Q.dtype)
    for row in policy_text(Q):
        print(row)
    print(greedy_path(Q)[:12].tolist())
