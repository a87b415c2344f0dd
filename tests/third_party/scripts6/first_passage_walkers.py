"""Random walkers between absorbing walls: positions rebound each step (`pos = pos + steps`),
an `alive` mask narrowed in place (`alive &= ~hit`), first-passage times recorded with
`np.where`, the first absorbed walker found by `np.argmax` of a boolean array, and the survival
curve as a cumulative sum of absorption counts. Draws come from a Generator passed in.
"""
import numpy as np

NW = 64
LO, HI = -6, 9
MAXSTEPS = 120


def walk(rng, nw, maxsteps):
    pos = np.zeros(nw, dtype=np.int64)
    alive = np.ones(nw, dtype=bool)
    tfirst = np.full(nw, -1)
    absorbed = np.zeros(maxsteps, dtype=np.int64)
    for t in range(maxsteps):
        steps = rng.choice(np.array([-1, 1]), size=nw)
        pos = pos + steps * alive
        hit = alive & ((pos <= LO) | (pos >= HI))
        tfirst = np.where(hit, t, tfirst)
        absorbed[t] = hit.sum()
        alive &= ~hit
        if not alive.any():
            break
    survival = nw - np.cumsum(absorbed)
    first = np.argmax(tfirst >= 0)
    return pos, tfirst, survival, first, alive.sum()


def mean_exit(tfirst):
    done = tfirst[tfirst >= 0]
    return done.mean() if done.size else np.nan


def run(seed):
    rng = np.random.default_rng(seed)
    pos, tfirst, survival, first, left = walk(rng, NW, MAXSTEPS)
    return pos, tfirst, survival, first, left, rng.integers(0, 1000)


CHECKS = {
    "run": lambda: (12,),
    "walk": lambda: (np.random.default_rng(3), 20, 40),
    "mean_exit": lambda: (np.array([-1, 4, 9, -1, 2]),),
}

if __name__ == "__main__":
    pos, tfirst, survival, first, left, nxt = run(12)
    print(pos.tolist()[:10], tfirst.tolist()[:10], survival[::20].tolist(), repr(first), repr(left), repr(nxt))
    print(repr(mean_exit(tfirst)))
