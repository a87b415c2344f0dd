"""A collapsed-free Gibbs sampler for a one-dimensional Gaussian mixture (the textbook pattern of
Bayesian-statistics course scripts): assignments drawn per point from the normalised
responsibilities by `np.cumsum` and a uniform draw compared row-wise, counts by
`np.bincount(z, minlength=K)`, component means and precisions drawn from their conjugate
posteriors (normal-gamma) with a Generator passed in, weights from `rng.dirichlet`, an empty
component re-drawn from its prior, a label switch fixed by sorting the means (`order =
np.argsort(mu)`, `mu[...] = mu[order]`), samples kept after burn-in into preallocated rows, a
trace printed every few sweeps.
"""
import numpy as np

K = 3
ALPHA = 1.0
MU0, KAPPA0 = 0.0, 0.01
A0, B0 = 2.0, 1.0


def make_data(rng, n):
    comp = rng.integers(0, 3, size=n)
    centres = np.array([-4.0, 0.0, 5.0])
    scales = np.array([1.0, 0.5, 1.5])
    return centres[comp] + scales[comp] * rng.standard_normal(n)


def log_resp(x, w, mu, tau):
    # (n, K) unnormalised log responsibilities
    d = x[:, None] - mu[None, :]
    return np.log(w)[None, :] + 0.5 * np.log(tau)[None, :] - 0.5 * tau[None, :] * d * d


def draw_assignments(x, w, mu, tau, rng, z):
    lr = log_resp(x, w, mu, tau)
    lr -= lr.max(axis=1, keepdims=True)
    p = np.exp(lr)
    p /= p.sum(axis=1, keepdims=True)
    c = np.cumsum(p, axis=1)
    u = rng.random(x.size)
    z[:] = (u[:, None] > c).sum(axis=1)
    np.minimum(z, K - 1, out=z)


def draw_parameters(x, z, rng, w, mu, tau):
    counts = np.bincount(z, minlength=K)
    sums = np.bincount(z, weights=x, minlength=K)
    sq = np.bincount(z, weights=x * x, minlength=K)
    w[:] = rng.dirichlet(ALPHA + counts)
    for k in range(K):
        n = counts[k]
        if n == 0:
            # an empty component: both drawn from the prior
            tau[k] = rng.gamma(A0, 1.0 / B0)
            mu[k] = MU0 + rng.standard_normal() / np.sqrt(KAPPA0 * tau[k])
            continue
        xbar = sums[k] / n
        ss = sq[k] - n * xbar * xbar
        kn = KAPPA0 + n
        mn = (KAPPA0 * MU0 + n * xbar) / kn
        an = A0 + 0.5 * n
        bn = B0 + 0.5 * ss + 0.5 * KAPPA0 * n * (xbar - MU0) ** 2 / kn
        tau[k] = rng.gamma(an, 1.0 / bn)
        mu[k] = mn + rng.standard_normal() / np.sqrt(kn * tau[k])
    return counts


def relabel(w, mu, tau):
    order = np.argsort(mu)
    w[...] = w[order]
    mu[...] = mu[order]
    tau[...] = tau[order]


def gibbs(x, sweeps, burn, rng, every=10):
    n = x.size
    w = np.full(K, 1.0 / K)
    mu = np.linspace(x.min(), x.max(), K)
    tau = np.ones(K)
    z = np.zeros(n, dtype=np.int64)
    kept = np.zeros((sweeps - burn, 3, K))
    for s in range(sweeps):
        draw_assignments(x, w, mu, tau, rng, z)
        counts = draw_parameters(x, z, rng, w, mu, tau)
        relabel(w, mu, tau)
        if s >= burn:
            kept[s - burn, 0] = w
            kept[s - burn, 1] = mu
            kept[s - burn, 2] = 1.0 / np.sqrt(tau)
        if (s + 1) % every == 0:
            print("sweep", s + 1, "counts", counts.tolist(), "mu", np.round(mu, 3))
    return kept, z


CHECKS = {
    "gibbs": lambda: (make_data(np.random.default_rng(1), 60), 12, 4, np.random.default_rng(2), 5),
    "draw_assignments": lambda: (np.linspace(-5.0, 6.0, 9), np.array([0.2, 0.5, 0.3]), np.array([-4.0, 0.0, 5.0]),
                                 np.array([1.0, 4.0, 0.5]), np.random.default_rng(3), np.zeros(9, dtype=np.int64)),
    "draw_parameters": lambda: (np.linspace(-5.0, 6.0, 9), np.array([0, 0, 0, 2, 2, 2, 2, 0, 0]),
                                np.random.default_rng(4), np.zeros(K), np.zeros(K), np.zeros(K)),
    "relabel": lambda: (np.array([0.2, 0.5, 0.3]), np.array([3.0, -1.0, 0.5]), np.array([1.0, 2.0, 3.0])),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    data = make_data(rng, 150)
    kept, z = gibbs(data, 40, 20, rng)
    post = kept.mean(axis=0)
    print("weights", repr(np.round(post[0], 6)))
    print("means", repr(np.round(post[1], 6)))
    print("sds", repr(np.round(post[2], 6)))
    print("sizes", np.bincount(z, minlength=K))
