"""Particles in a box with reflecting walls, occupancy counted the naive way (buffered `+=`).

Positions and velocities in float64; walls reflect with masked in-place stores (`x[low] *= -1`,
`v[low] = -v[low]`, `x[high] = 2 * L - x[high]`); cell indices come from `//` on floats and
`astype(np.int64)`, negative cells are wrapped with `%`. The occupancy is counted twice: with
`counts[cell] += 1` (NumPy's buffered fancy `+=`: a cell hit by several particles counts once,
the classic slip this script keeps on purpose) and with np.add.at (every hit counts). The
difference is printed each step; an int32 step counter and an int8 flag array ride along.
"""
import numpy as np

ENTRY = "bounce"
L = 1.0
NCELLS = 8


def bounce(x, v, dt, nsteps):
    naive = np.zeros(NCELLS, dtype=np.int64)
    exact = np.zeros(NCELLS, dtype=np.int64)
    hits = np.zeros(x.shape, dtype=np.int8)
    steps = np.int32(0)
    for step in range(nsteps):
        x += v * dt
        low = x < 0.0
        high = x > L
        x[low] *= -1.0
        v[low] = -v[low]
        x[high] = 2.0 * L - x[high]
        v[high] = -v[high]
        hits[low | high] += 1
        cell = (x // (L / NCELLS)).astype(np.int64) % NCELLS
        naive[cell] += 1
        np.add.at(exact, cell, 1)
        steps += 1
        print(step, repr(int(exact.sum() - naive.sum())), repr(naive.tolist()))
    return naive, exact, hits, steps


def make_inputs(size="small"):
    n = 10 if size == "small" else 100
    rng = np.random.default_rng(14)
    return dict(x=rng.uniform(0.0, L, n), v=rng.uniform(-2.0, 2.0, n), dt=0.1, nsteps=6)


if __name__ == "__main__":
    inputs = make_inputs("large")
    naive, exact, hits, steps = bounce(**inputs)
    print(repr(naive.tolist()), repr(exact.tolist()), repr(int(hits.sum())), repr(steps))
    print(repr(inputs["x"].sum()), repr(inputs["v"].sum()))
