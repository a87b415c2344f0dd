"""A bootstrap particle filter for a nonlinear growth model: particles propagated with
`rng.normal`, log-weights normalised by subtracting the max, the effective sample size
1 / sum(w^2) checked against a threshold, systematic resampling by `np.searchsorted` on the
cumulative weights (`cdf[-1] = 1.0` guarding round-off), particles reindexed in place
(`x[:] = x[idx]`), weights reset with `.fill`, estimates and resample counts printed.
"""
import numpy as np


def propagate(x, t, rng):
    x[:] = 0.5 * x + 25 * x / (1 + x * x) + 8 * np.cos(1.2 * t) + rng.normal(0, np.sqrt(10), x.size)


def systematic(w, rng):
    n = w.size
    u = (rng.random() + np.arange(n)) / n
    cdf = np.cumsum(w)
    cdf[-1] = 1.0
    return np.searchsorted(cdf, u)


def pf(ys, n, rng, threshold):
    x = rng.normal(0, 2, n)
    w = np.full(n, 1.0 / n)
    est = np.zeros(ys.size)
    resamples = 0
    for t in range(ys.size):
        propagate(x, t, rng)
        logw = np.log(w) - 0.5 * (ys[t] - x * x / 20) ** 2
        logw -= logw.max()
        w = np.exp(logw)
        w /= w.sum()
        est[t] = (w * x).sum()
        ess = 1.0 / (w * w).sum()
        if ess < threshold * n:
            idx = systematic(w, rng)
            x[:] = x[idx]
            w.fill(1.0 / n)
            resamples += 1
        if t % 10 == 0:
            print(f"t={t} ess={ess:.6f}")
    return est, resamples


def simulate(T, seed):
    rng = np.random.default_rng(seed)
    x = 0.1
    ys = np.zeros(T)
    xs = np.zeros(T)
    for t in range(T):
        x = 0.5 * x + 25 * x / (1 + x * x) + 8 * np.cos(1.2 * t) + rng.normal(0, np.sqrt(10))
        xs[t] = x
        ys[t] = x * x / 20 + rng.normal()
    return xs, ys


CHECKS = {
    "pf": lambda: (simulate(25, 1)[1], 64, np.random.default_rng(2), 0.5),
    "systematic": lambda: (np.full(8, 0.125), np.random.default_rng(3)),
    "simulate": lambda: (15, 4),
}

if __name__ == "__main__":
    xs, ys = simulate(50, 1)
    est, resamples = pf(ys, 200, np.random.default_rng(2), 0.5)
    print(resamples, repr(np.sqrt(((est - xs) ** 2).mean())))
