"""Black-Scholes and Heston pricing by Monte Carlo in float32 (the pattern of quant-finance
notebooks that keep paths in float32 to fit the GPU): the closed-form Black-Scholes call by
`math.erf` of Python floats as the benchmark, float32 log-price paths advanced in place
(`logS += (r - 0.5 * v) * dt + sqrt(v * dt) * z1`), the variance by full truncation
`vp = np.maximum(v, 0)` and `v += kappa * (theta - vp) * dt + ...`, correlated normals
`z2 = rho * z1 + sqrt(1 - rho**2) * w`, antithetic halves written into a preallocated draw
array `z[half:] = -z[:half]`, payoffs by `np.maximum(..., 0, out=)`, a running standard error,
np.float32 parameters mixed with Python floats.
"""
import math

import numpy as np

S0, K_STRIKE, T_MAT, RATE = 100.0, 100.0, 1.0, 0.03
KAPPA, THETA, XI, RHO, V0 = np.float32(2.0), np.float32(0.04), np.float32(0.3), -0.7, 0.04


def bs_call(s, k, t, r, sigma):
    if t <= 0.0:
        return max(s - k, 0.0)
    d1 = (math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    cdf = lambda x: 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
    return s * cdf(d1) - k * math.exp(-r * t) * cdf(d2)


def antithetic(z):
    half = z.shape[0] // 2
    z[half:] = -z[:half]
    return z


def gbm_paths(n, steps, sigma, rng):
    dt = np.float32(T_MAT / steps)
    logS = np.full(n, np.log(np.float32(S0)), dtype=np.float32)
    z = np.empty(n, dtype=np.float32)
    for _ in range(steps):
        z[: n // 2] = rng.standard_normal(n // 2, dtype=np.float32)
        antithetic(z)
        logS += np.float32(RATE - 0.5 * sigma * sigma) * dt + np.float32(sigma) * np.sqrt(dt) * z
    return np.exp(logS)


def heston_paths(n, steps, rng, logS, v):
    dt = np.float32(T_MAT / steps)
    sq = np.float32(math.sqrt(1.0 - RHO * RHO))
    for _ in range(steps):
        z1 = rng.standard_normal(n, dtype=np.float32)
        w = rng.standard_normal(n, dtype=np.float32)
        z2 = np.float32(RHO) * z1 + sq * w
        vp = np.maximum(v, np.float32(0.0))
        logS += (np.float32(RATE) - np.float32(0.5) * vp) * dt + np.sqrt(vp * dt) * z1
        v += KAPPA * (THETA - vp) * dt + XI * np.sqrt(vp * dt) * z2
    return np.exp(logS)


def price(ST, payoff):
    np.maximum(ST - np.float32(K_STRIKE), np.float32(0.0), out=payoff)
    disc = math.exp(-RATE * T_MAT)
    mean = disc * payoff.mean(dtype=np.float64)
    se = disc * payoff.std(dtype=np.float64) / math.sqrt(payoff.size)
    return mean, se


def batches(nb, n, steps, seed):
    rng = np.random.default_rng(seed)
    total = 0.0
    sq = 0.0
    payoff = np.empty(n, dtype=np.float32)
    for b in range(nb):
        logS = np.full(n, np.log(np.float32(S0)), dtype=np.float32)
        v = np.full(n, np.float32(V0), dtype=np.float32)
        ST = heston_paths(n, steps, rng, logS, v)
        m, _ = price(ST, payoff)
        total += m
        sq += m * m
        if (b + 1) % 2 == 0:
            est = total / (b + 1)
            print("batch", b + 1, "estimate", round(float(est), 3), "neg var", int((v < 0).sum()))
    mean = total / nb
    return mean, math.sqrt(max(sq / nb - mean * mean, 0.0) / nb)


CHECKS = {
    "gbm_paths": lambda: (64, 8, 0.2, np.random.default_rng(1)),
    "heston_paths": lambda: (32, 10, np.random.default_rng(2), np.full(32, np.log(np.float32(S0)), dtype=np.float32),
                             np.full(32, np.float32(V0), dtype=np.float32)),
    "price": lambda: (np.linspace(80.0, 120.0, 16, dtype=np.float32), np.empty(16, dtype=np.float32)),
    "antithetic": lambda: (np.arange(6, dtype=np.float32),),
}

if __name__ == "__main__":
    exact = bs_call(S0, K_STRIKE, T_MAT, RATE, 0.2)
    ST = gbm_paths(4000, 16, 0.2, np.random.default_rng(2026))
    m, se = price(ST, np.empty(ST.size, dtype=np.float32))
    print("black-scholes", round(exact, 6), "mc", round(m, 3), "se", round(se, 3), ST.dtype)
    h, hse = batches(4, 2000, 24, 7)
    print("heston", round(h, 3), "se", round(hse, 3))
