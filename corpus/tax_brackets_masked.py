"""Agent-based income model: each period incomes grow, incomes above a threshold are taxed by a
masked update (`d[d > h] = d[d > h] - L`, the masked read feeding the same masked store, and
`tax = d[d > t] * 0.45 - c` stored under the same mask), the transfer rule is a lambda, and the
summary uses the builtins max/min/abs and masked reductions."""
import math

import numpy as np

ENTRY = "economy"


def economy(d, periods, growth, h, L, t, c):
    stats = np.zeros((periods, 4))
    rate = math.log1p(growth)
    transfer = lambda x: 0.1 * x + c
    for p in range(periods):
        d *= math.exp(rate)
        d[d > h] = d[d > h] - L
        tax = np.zeros_like(d)
        tax[d > t] = d[d > t] * 0.45 - c
        d -= tax
        d[:] = np.where(d < c, transfer(d), d)
        assert d.min() >= 0.0, "negative income"
        stats[p, 0] = max(d.max(), h)
        stats[p, 1] = min(d.min(), L)
        stats[p, 2] = abs(tax.sum())
        stats[p, 3] = d[d > t].sum()
    return stats


def make_inputs(size="small"):
    n, periods = (20, 5) if size == "small" else (200000, 60)
    rng = np.random.default_rng(5)
    return dict(d=rng.lognormal(0.0, 0.6, n) * 3.0, periods=periods, growth=0.03, h=6.0, L=0.5,
                t=4.0, c=0.2)


if __name__ == "__main__":
    inputs = make_inputs("large")
    stats = economy(**inputs)
    print(f"last = {stats[-1]}")
