"""A price-level limit order book with a market maker (the pattern of market-microstructure
simulation scripts): int64 resting quantities per tick for bids and asks, limit orders added at
drawn offsets from the touch, cancellations by `np.minimum(book, drawn, out=)`-style clipping,
market orders walking the levels in a `while` loop until filled or the side is empty, the best
bid and ask by `np.flatnonzero(...)`-free scans (`np.argmax(bids[::-1] > 0)`), the market
maker's inventory and cash as Python ints and floats updated from fills, a mid-price history
array, and a summary printed every few hundred events.
"""
import numpy as np

LEVELS = 40
TICK = 0.01


def best_bid(bids):
    if not bids.any():
        return -1
    return LEVELS - 1 - int(np.argmax(bids[::-1] > 0))


def best_ask(asks):
    if not asks.any():
        return LEVELS
    return int(np.argmax(asks > 0))


def market_order(book, qty, from_top):
    # walks `book` from its best level; returns (filled, cost in ticks)
    filled = 0
    cost = 0
    level = LEVELS - 1 if from_top else 0
    step = -1 if from_top else 1
    while qty > 0 and 0 <= level < LEVELS:
        take = min(qty, book[level])
        book[level] -= take
        qty -= take
        filled += take
        cost += take * level
        level += step
    return filled, cost


def cancel(book, frac, rng):
    drawn = rng.binomial(book, frac)
    book -= drawn
    return int(drawn.sum())


def simulate(bids, asks, events, rng, mid_hist):
    inventory = 0
    cash = 0.0
    for e in range(events):
        b, a = best_bid(bids), best_ask(asks)
        kind = rng.integers(0, 6)
        size = int(rng.integers(1, 6))
        if kind <= 1:
            off = int(rng.integers(0, 5))
            lvl = max(b - off, 0) if b >= 0 else LEVELS // 2 - 1 - off
            if lvl < a:
                bids[lvl] += size
        elif kind <= 3:
            off = int(rng.integers(0, 5))
            lvl = min(a + off, LEVELS - 1) if a < LEVELS else LEVELS // 2 + off
            if lvl > b:
                asks[lvl] += size
        elif kind == 4:
            # the market maker sells into the bids or buys the asks
            if rng.random() < 0.5:
                got, ticks = market_order(bids, size, True)
                inventory -= got
                cash += ticks * TICK
            else:
                got, ticks = market_order(asks, size, False)
                inventory += got
                cash -= ticks * TICK
        else:
            cancel(bids, 0.05, rng)
            cancel(asks, 0.05, rng)
        b, a = best_bid(bids), best_ask(asks)
        mid_hist[e] = 0.5 * (b + a) * TICK if b >= 0 and a < LEVELS else np.nan
        if (e + 1) % 150 == 0:
            print("event", e + 1, "spread", a - b, "depth", int(bids.sum()), int(asks.sum()), "inv", inventory)
    return inventory, cash


def initial_book():
    bids = np.zeros(LEVELS, dtype=np.int64)
    asks = np.zeros(LEVELS, dtype=np.int64)
    bids[LEVELS // 2 - 6: LEVELS // 2 - 1] = [3, 5, 8, 5, 4]
    asks[LEVELS // 2 + 1: LEVELS // 2 + 6] = [4, 6, 8, 5, 3]
    return bids, asks


CHECKS = {
    "simulate": lambda: (*initial_book(), 60, np.random.default_rng(3), np.zeros(60)),
    "market_order": lambda: (initial_book()[0], 11, True),
    "market_order#empty": lambda: (initial_book()[1], 100, False),
    "cancel": lambda: (initial_book()[0], 0.3, np.random.default_rng(4)),
    "best_bid": lambda: (initial_book()[0],),
    "best_ask#none": lambda: (np.zeros(LEVELS, dtype=np.int64),),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    bids, asks = initial_book()
    mids = np.zeros(600)
    inv, cash = simulate(bids, asks, 600, rng, mids)
    print("inventory", inv, "cash", round(cash, 2), type(inv).__name__, type(cash).__name__)
    ok = mids[~np.isnan(mids)]
    print("mid first/last", round(float(ok[0]), 4), round(float(ok[-1]), 4), "nan", int(np.isnan(mids).sum()))
    print("book", bids.dtype, int(bids.max()), int(asks.max()))
