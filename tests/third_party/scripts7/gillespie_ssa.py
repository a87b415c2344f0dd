"""Gillespie's direct method for a birth-death-dimerisation network: propensities recomputed
into a preallocated array with `out=`-style slice writes, the reaction chosen by
`np.searchsorted(np.cumsum(a), r * a0)`, the state updated by a row of the int stoichiometry
matrix (`x += nu[j]`), time sampled with `rng.exponential`, a fixed event budget with `break` once
time passes `t_end`, and the trajectory sampled onto a grid.
"""
import numpy as np

NU = np.array([[1, 0], [-1, 0], [-2, 1], [2, -1]])
RATES = np.array([10.0, 0.1, 0.002, 0.5])


def propensities(x, c, a):
    a[0] = c[0]
    a[1] = c[1] * x[0]
    a[2] = c[2] * x[0] * (x[0] - 1) / 2.0
    a[3] = c[3] * x[1]
    return a


def ssa(x, c, t_end, max_events, rng, grid):
    a = np.zeros(4)
    samples = np.zeros((grid.size, 2), dtype=np.int64)
    t = 0.0
    g = 0
    events = 0
    for _ in range(max_events):
        propensities(x, c, a)
        a0 = a.sum()
        if a0 <= 0.0:
            break
        tau = rng.exponential(1.0 / a0)
        while g < grid.size and grid[g] < t + tau:
            samples[g] = x
            g += 1
        t += tau
        if t > t_end:
            break
        j = np.searchsorted(np.cumsum(a), rng.random() * a0)
        x += NU[j]
        events += 1
    samples[g:] = x
    return x, samples, t, events


def run(seed):
    rng = np.random.default_rng(seed)
    x = np.array([20, 0])
    grid = np.linspace(0.0, 5.0, 11)
    return ssa(x, RATES, 5.0, 400, rng, grid)


CHECKS = {"run": lambda: (1,), "propensities": lambda: (np.array([7, 3]), RATES, np.ones(4))}

if __name__ == "__main__":
    x, samples, t, events = run(1)
    print(x.tolist(), samples[:, 0].tolist(), repr(t), events)
