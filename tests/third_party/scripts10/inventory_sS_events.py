"""Periodic-review (s, S) inventory with lead times, backorders and lost sales, day by day, in
integer arrays: demand drawn with rng.poisson (int64), stock and pipeline in int32 arrays,
orders arriving from a ring buffer indexed `day % LEAD_MAX`, costs accumulated in a Python
float and counts in Python ints, np.int32 item arithmetic, per-day history rows, a service
level printed per policy from module-level set-up.
"""
import numpy as np

LEAD_MAX = 4
HOLD = 0.25
SHORT = 3.0
ORDER_COST = 12.0
POLICIES = [(10, 40), (20, 40), (25, 60)]
rng = np.random.default_rng(2024)
DEMAND = rng.poisson(6.0, size=(3, 120))  # three stores, 120 days
LEADS = rng.integers(1, LEAD_MAX, size=120)


def simulate(demand, leads, s, S, backorder=True):
    n_store, days = demand.shape
    stock = np.full(n_store, S, dtype=np.int32)
    pipeline = np.zeros((LEAD_MAX, n_store), dtype=np.int32)
    history = np.zeros((days, 3), dtype=np.int64)
    cost = 0.0
    orders = 0
    stockouts = 0
    for day in range(days):
        slot = day % LEAD_MAX
        stock += pipeline[slot]
        pipeline[slot] = 0
        d = demand[:, day]
        short = np.maximum(d - stock, 0)
        if backorder:
            stock -= d.astype(np.int32)
        else:
            stock -= np.minimum(d, stock).astype(np.int32)
        stockouts += int((short > 0).sum())
        on_order = pipeline.sum(axis=0)
        position = stock + on_order
        need = position <= s
        if need.any():
            q = np.where(need, S - position, 0).astype(np.int32)
            pipeline[(day + leads[day]) % LEAD_MAX] += q
            orders += int(need.sum())
            cost += ORDER_COST * need.sum()
        cost += HOLD * np.maximum(stock, 0).sum() + SHORT * short.sum()
        history[day, 0] = stock.sum()
        history[day, 1] = short.sum()
        history[day, 2] = on_order.sum()
    return cost, orders, stockouts, stock, history


def fill_rate(history, demand):
    served = demand.sum() - history[:, 1].sum()
    return served / demand.sum()


def reorder_points(mean, sd, lead, z):
    rop = np.empty(len(z), dtype=np.int32)
    for i, zi in enumerate(z):
        rop[i] = int(np.ceil(mean * lead + zi * sd * np.sqrt(lead)))
    return rop


CHECKS = {
    "simulate": lambda: (DEMAND[:, :40].copy(), LEADS[:40].copy(), 20, 40),
    "simulate#lost": lambda: {"demand": DEMAND[:2, :30].copy(), "leads": LEADS[:30].copy(), "s": 10, "S": 30,
                              "backorder": False},
    "fill_rate": lambda: (np.arange(30, dtype=np.int64).reshape(10, 3) % 4, DEMAND[:, :10].copy()),
    "reorder_points": lambda: (6.0, 2.5, 2, [0.0, 1.28, 1.64, 2.33]),
}

if __name__ == "__main__":
    for s, S in POLICIES:
        for backorder in (True, False):
            cost, orders, outs, stock, hist = simulate(DEMAND, LEADS, s, S, backorder)
            print(s, S, backorder, repr(cost), orders, outs, stock, stock.dtype)
            print("  fill", repr(fill_rate(hist, DEMAND)), hist[-1], hist.dtype)
    print(reorder_points(6.0, 2.5, 2, [0.0, 1.28, 1.64, 2.33]))
