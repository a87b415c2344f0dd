"""American put by backward-Euler finite differences (the implicit Black-Scholes step of
textbook code): a nested tridiagonal solver closing over the coefficient arrays, the early
exercise constraint applied with a masked store, math.* on the market parameters, and an assert
on the solution."""
import math

import numpy as np

ENTRY = "price"


def price(strike, rate, sigma, expiry, s_max, n_s, n_t):
    ds = s_max / n_s
    dt = expiry / n_t
    s = np.arange(n_s + 1) * ds
    payoff = np.maximum(strike - s, 0.0)
    v = payoff.copy()
    j = np.arange(1, n_s)
    a = 0.5 * dt * (rate * j - sigma ** 2 * j ** 2)
    b = 1.0 + dt * (sigma ** 2 * j ** 2 + rate)
    c = -0.5 * dt * (rate * j + sigma ** 2 * j ** 2)
    cprime = np.zeros(n_s - 1)
    dprime = np.zeros(n_s - 1)
    disc = math.exp(-rate * dt)

    def solve(rhs, out):
        m = n_s - 1
        cprime[0] = c[0] / b[0]
        dprime[0] = rhs[0] / b[0]
        for i in range(1, m):
            den = b[i] - a[i] * cprime[i - 1]
            cprime[i] = c[i] / den
            dprime[i] = (rhs[i] - a[i] * dprime[i - 1]) / den
        out[m - 1] = dprime[m - 1]
        for i in range(m - 2, -1, -1):
            out[i] = dprime[i] - cprime[i] * out[i + 1]

    exercised = np.zeros(n_t)
    for step in range(n_t):
        rhs = v[1:-1].copy()
        rhs[0] -= a[0] * strike * disc
        solve(rhs, v[1:-1])
        v[0] = strike
        v[-1] = 0.0
        early = v < payoff
        v[early] = payoff[early]
        exercised[step] = early.sum()
        assert v.min() >= 0.0
    return v, exercised


def make_inputs(size="small"):
    n_s, n_t = (12, 6) if size == "small" else (2000, 2000)
    return dict(strike=1.0, rate=0.05, sigma=0.3, expiry=1.0, s_max=3.0, n_s=n_s, n_t=n_t)


if __name__ == "__main__":
    inputs = make_inputs("large")
    v, exercised = price(**inputs)
    print(f"value at strike = {v[len(v) // 3]:.10f}")
    print(f"exercised last  = {exercised[-1]}")
