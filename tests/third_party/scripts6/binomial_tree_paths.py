"""Option pricing the way finance notebooks write it: a binomial tree whose value vector is
rebound shorter every step (`V = disc * (p * V[1:] + q * V[:-1])`), an American variant with
`np.maximum(V, exercise, out=V)`, and a Monte Carlo price over paths built with `np.cumsum` of
log returns from a seeded Generator, with a running maximum for a lookback payoff.
"""
import numpy as np

S0, K, R, SIGMA, T = 100.0, 95.0, 0.03, 0.25, 1.0


def binomial(n, american):
    dt = T / n
    u = np.exp(SIGMA * np.sqrt(dt))
    d = 1.0 / u
    p = (np.exp(R * dt) - d) / (u - d)
    disc = np.exp(-R * dt)
    j = np.arange(n + 1)
    S = S0 * u ** j * d ** (n - j)
    V = np.maximum(K - S, 0.0)
    for i in range(n - 1, -1, -1):
        V = disc * (p * V[1:] + (1 - p) * V[:-1])
        if american:
            S = S[1:] * d
            np.maximum(V, K - S, out=V)
    return V[0]


def mc_paths(n_paths, n_steps, seed):
    rng = np.random.default_rng(seed)
    dt = T / n_steps
    z = rng.standard_normal((n_paths, n_steps))
    logret = (R - 0.5 * SIGMA ** 2) * dt + SIGMA * np.sqrt(dt) * z
    paths = S0 * np.exp(np.cumsum(logret, axis=1))
    running = np.maximum.accumulate(paths, axis=1)
    payoff = np.empty(n_paths)
    np.subtract(running[:, -1], K, out=payoff)
    payoff.clip(0.0, None, out=payoff)
    price = np.exp(-R * T) * payoff.mean()
    stderr = payoff.std(ddof=1) / np.sqrt(n_paths)
    return price, stderr, paths[:, -1]


def greeks(n):
    up = binomial(n, False)
    bump = 0.01
    prices = np.zeros(3)
    for k, american in enumerate((False, True, False)):
        prices[k] = binomial(n, american)
    return up, prices


CHECKS = {
    "binomial": lambda: (40, False),
    "binomial#american": lambda: (40, True),
    "mc_paths": lambda: (64, 12, 2024),
    "greeks": lambda: (25,),
}

if __name__ == "__main__":
    print("euro", repr(binomial(40, False)), "amer", repr(binomial(40, True)))
    price, err, last = mc_paths(64, 12, 2024)
    print("mc", repr(price), repr(err), repr(last.max()))
    up, prices = greeks(25)
    print(repr(up), np.round(prices, 12).tolist())
