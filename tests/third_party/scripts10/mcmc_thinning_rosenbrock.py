"""Random-walk Metropolis on a banana-shaped (Rosenbrock) density and a Gibbs sampler for a
bivariate normal: an accept counter as a Python int, samples thinned into a preallocated array
(`if i % thin == 0: chain[k] = x; k += 1`), burn-in skipped, the proposal scale tuned during
burn-in from the running acceptance, log-densities recomputed only on acceptance, draws made
in advance per block by a Generator, running means by `np.cumsum(...) / np.arange(1, n + 1)`.
"""
import numpy as np

A, B = 1.0, 5.0


def log_banana(x):
    return -((A - x[0]) ** 2 + B * (x[1] - x[0] ** 2) ** 2) / 20.0


def metropolis(x0, n, thin, burn, scale, seed):
    rng = np.random.default_rng(seed)
    x = x0.copy()
    lp = log_banana(x)
    chain = np.zeros(((n - burn) // thin, x.size))
    steps = rng.standard_normal((n, x.size))
    logu = np.log(rng.random(n))
    accepted = 0
    accepted_burn = 0
    k = 0
    for i in range(n):
        prop = x + scale * steps[i]
        lq = log_banana(prop)
        if logu[i] < lq - lp:
            x[:] = prop
            lp = lq
            if i < burn:
                accepted_burn += 1
            else:
                accepted += 1
        if i < burn and (i + 1) % 50 == 0:
            rate = accepted_burn / 50
            scale *= 1.1 if rate > 0.3 else 0.9
            accepted_burn = 0
        if i >= burn and (i - burn) % thin == 0 and k < chain.shape[0]:
            chain[k] = x
            k += 1
    return chain, accepted / (n - burn), scale, k


def gibbs(rho, n, seed):
    rng = np.random.default_rng(seed)
    out = np.empty((n, 2))
    z = rng.standard_normal((n, 2))
    s = np.sqrt(1.0 - rho * rho)
    x, y = 0.0, 0.0
    for i in range(n):
        x = rho * y + s * z[i, 0]
        y = rho * x + s * z[i, 1]
        out[i, 0] = x
        out[i, 1] = y
    return out, x, y


def running_mean(v):
    return np.cumsum(v, axis=0) / np.arange(1, v.shape[0] + 1)[:, None]


def autocorr(v, lag):
    v = v - v.mean()
    return (v[:-lag] * v[lag:]).sum() / (v * v).sum()


CHECKS = {
    "metropolis": lambda: (np.array([0.0, 0.0]), 600, 5, 200, 0.5, 1),
    "metropolis#long_thin": lambda: (np.array([1.0, 2.0]), 400, 20, 100, 2.0, 2),
    "gibbs": lambda: (0.8, 50, 3),
    "running_mean": lambda: (np.arange(12.0).reshape(6, 2),),
    "autocorr": lambda: (np.sin(np.arange(40) * 0.3), 3),
}

if __name__ == "__main__":
    chain, rate, scale, k = metropolis(np.array([0.0, 0.0]), 3000, 10, 1000, 1.0, 7)
    print("kept", k, chain.shape, "acceptance", repr(rate), "scale", repr(scale))
    print("mean", chain.mean(axis=0), "ac(1)", repr(autocorr(chain[:, 0], 1)))
    rm = running_mean(chain)
    print(rm[::50])
    out, x, y = gibbs(0.9, 2000, 11)
    print("gibbs corr", repr(np.corrcoef(out.T)[0, 1]), repr(x), repr(y), type(x).__name__)
