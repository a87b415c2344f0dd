"""Value function iteration for a stochastic neoclassical growth model (the pattern of
QuantEcon-style lecture scripts): a Tauchen discretisation of log productivity with
`math.erf` on Python floats into a preallocated transition matrix, a capital grid from
module-level set-up, consumption for every (z, k, k') with non-positive consumption masked to
`-np.inf` under `np.errstate`, the Bellman update by `np.max(..., axis=2)` and the policy by
`np.argmax`, a `while` on the sup norm with a progress print every N iterations, Howard
policy-evaluation steps written into the caller's value array, and a simulated path of
capital from seeded draws through the policy's int64 indices.
"""
import math

import numpy as np

ALPHA = 0.36
BETA = 0.95
DELTA = 0.1
NK = 40
NZ = 5
RHO = 0.9
SIGMA = 0.02

K_SS = (ALPHA / (1.0 / BETA - 1.0 + DELTA)) ** (1.0 / (1.0 - ALPHA))
KGRID = np.linspace(0.5 * K_SS, 1.5 * K_SS, NK)


def norm_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def tauchen(n, rho, sigma, m=3.0):
    std = sigma / math.sqrt(1.0 - rho * rho)
    z = np.linspace(-m * std, m * std, n)
    step = z[1] - z[0]
    P = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            lo = (z[j] - rho * z[i] - step / 2) / sigma
            hi = (z[j] - rho * z[i] + step / 2) / sigma
            if j == 0:
                P[i, j] = norm_cdf(hi)
            elif j == n - 1:
                P[i, j] = 1.0 - norm_cdf(lo)
            else:
                P[i, j] = norm_cdf(hi) - norm_cdf(lo)
    return z, P


def utility_table(zgrid, kgrid):
    out = np.exp(zgrid)[:, None] * kgrid[None, :] ** ALPHA + (1.0 - DELTA) * kgrid[None, :]
    c = out[:, :, None] - kgrid[None, None, :]
    u = np.full(c.shape, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = c > 0
        u[pos] = np.log(c[pos])
    return u


def bellman(v, u, P, policy):
    ev = P @ v
    q = u + BETA * ev[:, None, :]
    policy[...] = np.argmax(q, axis=2)
    return np.max(q, axis=2)


def howard(v, u, P, policy, steps):
    nz, nk = v.shape
    rows = np.arange(nz)[:, None]
    cols = np.arange(nk)[None, :]
    for _ in range(steps):
        ev = P @ v
        v[...] = u[rows, cols, policy] + BETA * ev[rows, policy]


def solve(u, P, tol=1e-6, max_iter=500, howard_steps=0):
    v = np.zeros(u.shape[:2])
    policy = np.zeros(u.shape[:2], dtype=np.int64)
    err = np.inf
    it = 0
    while err > tol and it < max_iter:
        v_new = bellman(v, u, P, policy)
        if howard_steps:
            howard(v_new, u, P, policy, howard_steps)
        err = np.max(np.abs(v_new - v))
        v = v_new
        it += 1
        if it % 25 == 0:
            print("iter", it, "sup norm", err)
    return v, policy, it


def simulate(policy, P, T, z0, k0, draws):
    cum = np.cumsum(P, axis=1)
    z, k = z0, k0
    path = np.empty(T, dtype=np.int64)
    for t in range(T):
        path[t] = k
        k = policy[z, k]
        z = int(np.searchsorted(cum[z], draws[t]))
        z = min(z, P.shape[0] - 1)
    return path


ZGRID, PMAT = tauchen(NZ, RHO, SIGMA)
UTAB = utility_table(ZGRID, KGRID)

CHECKS = {
    "tauchen": lambda: (NZ, RHO, SIGMA),
    "utility_table": lambda: (ZGRID, KGRID),
    "bellman": lambda: (np.zeros((NZ, NK)), UTAB, PMAT, np.zeros((NZ, NK), dtype=np.int64)),
    "howard": lambda: (np.ones((NZ, NK)), UTAB, PMAT, np.tile(np.arange(NK), (NZ, 1)) // 2, 3),
    "solve": lambda: (UTAB, PMAT, 1e-4, 60),
    "solve#howard": lambda: (UTAB, PMAT, 1e-6, 80, 5),
    "simulate": lambda: (np.tile(np.arange(NK)[::-1], (NZ, 1)), PMAT, 12, 2, 3,
                         np.random.default_rng(1).random(12)),
}

if __name__ == "__main__":
    v, pol, its = solve(UTAB, PMAT, 1e-6, 400, 10)
    print("converged in", its, "iterations", type(its).__name__)
    print("v range", v.min(), v.max())
    print("policy dtype", pol.dtype, "mean index", pol.mean())
    draws = np.random.default_rng(7).random(200)
    path = simulate(pol, PMAT, 200, NZ // 2, NK // 2, draws)
    print("mean capital", KGRID[path[50:]].mean(), "steady state", K_SS)
    print("last states", path[-5:])
