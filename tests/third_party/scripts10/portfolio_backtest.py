"""A momentum portfolio backtest: prices simulated at module level, log returns, a rolling
lookback by a loop over windows (`rets[t - LOOK:t]` views summed), the top-k assets picked by a
stable argsort, weights rebalanced every REBAL days with transaction costs on turnover, whole
shares by np.floor(...).astype(np.int64), cash a Python float, equity written into a
preallocated array, drawdown by np.maximum.accumulate, rolling volatility, a summary dict.
"""
import numpy as np

rng = np.random.default_rng(31)
N_ASSETS = 6
DAYS = 160
LOOK = 20
REBAL = 10
TOP = 2
COST = 0.001
DRIFT = np.linspace(-0.0005, 0.001, N_ASSETS)
PRICES = 100.0 * np.exp(np.cumsum(DRIFT + 0.015 * rng.standard_normal((DAYS, N_ASSETS)), axis=0))


def momentum_scores(logret, t, look):
    window = logret[t - look:t]
    return window.sum(axis=0) / (window.std(axis=0) + 1e-12)


def backtest(prices, capital, look=LOOK, rebal=REBAL, top=TOP):
    days, n = prices.shape
    logret = np.zeros_like(prices)
    logret[1:] = np.log(prices[1:] / prices[:-1])
    shares = np.zeros(n, dtype=np.int64)
    cash = float(capital)
    equity = np.full(days, float(capital))
    trades = 0
    fees = 0.0
    for t in range(look, days):
        px = prices[t]
        if (t - look) % rebal == 0:
            scores = momentum_scores(logret, t, look)
            pick = np.argsort(-scores, kind="stable")[:top]
            value = cash + shares @ px
            target = np.zeros(n)
            target[pick] = value / top
            new_shares = np.floor(target / px).astype(np.int64)
            delta = new_shares - shares
            turnover = np.abs(delta) @ px
            fee = COST * turnover
            cash -= delta @ px + fee
            fees += fee
            trades += int(np.count_nonzero(delta))
            shares[:] = new_shares
        equity[t] = cash + shares @ px
    return equity, shares, trades, fees


def drawdown(equity):
    peak = np.maximum.accumulate(equity)
    dd = equity / peak - 1.0
    return dd.min(), int(np.argmin(dd))


def rolling_vol(equity, window):
    r = np.diff(np.log(equity))
    out = np.full(r.size, np.nan)
    for t in range(window, r.size + 1):
        out[t - 1] = r[t - window:t].std(ddof=1) * np.sqrt(252.0)
    return out


def summary(equity, fees, trades):
    total = equity[-1] / equity[0] - 1.0
    mdd, when = drawdown(equity)
    return {"total": total, "max_dd": mdd, "dd_day": when, "fees": fees, "trades": trades}


CHECKS = {
    "backtest": lambda: (PRICES[:80].copy(), 10_000),
    "backtest#fast": lambda: {"prices": PRICES.copy(), "capital": 5_000.0, "look": 10, "rebal": 5, "top": 3},
    "drawdown": lambda: (np.array([1.0, 1.2, 0.9, 1.3, 1.1, 0.8, 1.4]),),
    "rolling_vol": lambda: (PRICES[:40, 0].copy(), 5),
    "summary": lambda: (np.array([100.0, 104.0, 98.0, 110.0]), 1.5, 3),
}

if __name__ == "__main__":
    for top in (1, 2, 3):
        equity, shares, trades, fees = backtest(PRICES, 10_000, top=top)
        s = summary(equity, fees, trades)
        print(top, {k: (round(v, 6) if isinstance(v, float) else v) for k, v in s.items()}, shares)
    vol = rolling_vol(equity, 20)
    print(repr(np.nanmean(vol)), np.isnan(vol).sum())
