"""Monte Carlo pricing on geometric Brownian paths: increments drawn with `np.random.seed` +
`np.random.standard_normal`, paths by `np.cumprod` of growth factors and by `np.exp(np.cumsum)`,
antithetic variates (`z = np.concatenate([z, -z])`), an arithmetic Asian payoff into a preallocated
array with `np.maximum(..., 0.0, out=payoff)`, a barrier knocked out by `paths.max(axis=1)`, and
the price and standard error per batch in a loop with running sums.
"""
import numpy as np

S0, K, R, SIGMA, T = 100.0, 100.0, 0.03, 0.25, 1.0


def paths_cumprod(z, dt):
    growth = np.exp((R - 0.5 * SIGMA ** 2) * dt + SIGMA * np.sqrt(dt) * z)
    return S0 * np.cumprod(growth, axis=1)


def paths_cumsum(z, dt):
    return S0 * np.exp(np.cumsum((R - 0.5 * SIGMA ** 2) * dt + SIGMA * np.sqrt(dt) * z, axis=1))


def price(nbatches, npaths, nsteps, barrier, seed):
    np.random.seed(seed)
    dt = T / nsteps
    total = 0.0
    total2 = 0.0
    count = 0
    payoff = np.empty(2 * npaths)
    knocked = 0
    for b in range(nbatches):
        z = np.random.standard_normal((npaths, nsteps))
        z = np.concatenate([z, -z])
        S = paths_cumprod(z, dt)
        np.maximum(S.mean(axis=1) - K, 0.0, out=payoff)
        out = S.max(axis=1) >= barrier
        payoff[out] = 0.0
        knocked += int(out.sum())
        disc = np.exp(-R * T) * payoff
        total += disc.sum()
        total2 += (disc ** 2).sum()
        count += disc.size
        print("batch", b, repr(total / count))
    mean = total / count
    se = np.sqrt((total2 / count - mean ** 2) / count)
    return mean, se, knocked


CHECKS = {"price": lambda: (3, 50, 12, 150.0, 4),
          "paths_cumsum": lambda: (np.random.default_rng(1).normal(size=(5, 8)), 0.125),
          "paths_cumprod": lambda: (np.random.default_rng(1).normal(size=(5, 8)), 0.125)}

if __name__ == "__main__":
    mean, se, knocked = price(4, 200, 24, 150.0, 4)
    z = np.random.default_rng(1).normal(size=(5, 8))
    print(repr(mean), repr(se), knocked, repr(np.abs(paths_cumprod(z, 0.1) - paths_cumsum(z, 0.1)).max() < 1e-9))
