"""Tau-leaping for a small reaction network (a Lotka-Volterra / SIR-like system): int64
populations, a stoichiometry matrix, propensities from mass action written into a work array,
Poisson counts `rng.poisson(a * tau)`, a leap rejected and tau halved when a population would go
negative (`if (x_new < 0).any(): tau *= 0.5; continue`), tau grown back after accepted leaps,
`min(tau, t_end - t)`, the trajectory written into preallocated arrays with a count, and an
exact SSA reference for the mean by a Python loop over events.
"""
import numpy as np

NU = np.array([
    [1, 0],    # prey birth
    [-1, 1],   # predation
    [0, -1],   # predator death
], dtype=np.int64)
RATES = np.array([1.0, 0.005, 0.6])


def propensities(x, rates, out):
    out[0] = rates[0] * x[0]
    out[1] = rates[1] * x[0] * x[1]
    out[2] = rates[2] * x[1]
    return out.sum()


def tau_leap(x0, rates, t_end, tau0, seed, max_steps=2000):
    rng = np.random.default_rng(seed)
    x = x0.copy()
    a = np.zeros(NU.shape[0])
    times = np.zeros(max_steps)
    traj = np.zeros((max_steps, x.size), dtype=np.int64)
    t = 0.0
    tau = tau0
    n = 0
    rejected = 0
    while t < t_end and n < max_steps:
        a0 = propensities(x, rates, a)
        if a0 == 0:
            break
        step = min(tau, t_end - t)
        k = rng.poisson(a * step)
        x_new = x + NU.T @ k
        if (x_new < 0).any():
            tau *= 0.5
            rejected += 1
            continue
        x[:] = x_new
        t += step
        times[n] = t
        traj[n] = x
        n += 1
        tau = min(tau * 1.2, tau0)
    return times, traj, n, rejected


def ssa(x0, rates, t_end, seed, max_events=5000):
    rng = np.random.default_rng(seed)
    x = x0.copy()
    a = np.zeros(NU.shape[0])
    t = 0.0
    events = 0
    while events < max_events:
        a0 = propensities(x, rates, a)
        if a0 <= 0:
            break
        t += rng.exponential(1.0 / a0)
        if t > t_end:
            break
        j = np.searchsorted(np.cumsum(a), rng.random() * a0, side="right")
        x += NU[j]
        events += 1
    return x, events


CHECKS = {
    "tau_leap": lambda: (np.array([50, 20], dtype=np.int64), RATES.copy(), 2.0, 0.05, 1),
    "tau_leap#tight": lambda: (np.array([100, 40], dtype=np.int64), RATES.copy(), 5.0, 0.3, 2, 300),
    "ssa": lambda: (np.array([30, 10], dtype=np.int64), RATES.copy(), 0.5, 3),
    "propensities": lambda: (np.array([10, 3], dtype=np.int64), RATES.copy(), np.zeros(3)),
}

if __name__ == "__main__":
    x0 = np.array([100, 40], dtype=np.int64)
    for seed in (1, 2):
        times, traj, n, rejected = tau_leap(x0, RATES, 5.0, 0.3, seed)
        print("seed", seed, "leaps", n, "rejected", rejected, "t", repr(times[n - 1]), traj[n - 1], traj.dtype)
        print("  max prey", traj[:n, 0].max(), "min predators", traj[:n, 1].min())
    finals = np.array([ssa(x0, RATES, 1.0, s)[0] for s in range(4)])
    print("ssa", finals.mean(axis=0), finals.dtype)
