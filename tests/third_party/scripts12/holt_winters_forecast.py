"""Holt-Winters additive smoothing of a monthly series with a grid search over the smoothing
constants, as forecasting notebooks write it: level and trend Python floats updated each month,
the seasonal indices an array updated in place at `season[t % M]`, initial values from the first
two seasons (`season[:] = first - first.mean()`), one-step forecasts written into an array handed
in, the SSE per parameter triple kept in a dict keyed by the tuple of Python floats (the
grid's values: tuples at module level), the best triple refitted and
forecast 12 months ahead, the data a list of monthly sales made by the set-up.
"""
import numpy as np

M = 12
np.random.seed(5)
_t = np.arange(72)
SALES = list(100.0 + 0.8 * _t + 12.0 * np.sin(2 * np.pi * _t / M) + np.random.normal(0.0, 2.0, _t.size))
ALPHAS = (0.2, 0.5)
BETAS = (0.05, 0.2)
GAMMAS = (0.1, 0.4)


def init_state(y, season):
    y = np.asarray(y)
    first = y[:M]
    second = y[M:2 * M]
    level = float(first.mean())
    trend = float((second.mean() - first.mean()) / M)
    season[:] = first - first.mean()
    return level, trend


def fit(y, alpha, beta, gamma, season, fitted):
    y = np.asarray(y, dtype=np.float64)
    level, trend = init_state(y, season)
    sse = 0.0
    for t in range(y.shape[0]):
        s = season[t % M]
        fitted[t] = level + trend + s
        err = y[t] - fitted[t]
        sse += err * err
        new_level = alpha * (y[t] - s) + (1 - alpha) * (level + trend)
        trend = beta * (new_level - level) + (1 - beta) * trend
        season[t % M] = gamma * (y[t] - new_level) + (1 - gamma) * s
        level = new_level
    return sse, level, trend


def forecast(level, trend, season, start, horizon):
    out = np.empty(horizon)
    for h in range(1, horizon + 1):
        out[h - 1] = level + h * trend + season[(start + h - 1) % M]
    return out


def grid_search(y, alphas, betas, gammas):
    n = len(y)
    results = {}
    season = np.zeros(M)
    fitted = np.zeros(n)
    for a in alphas:
        for b in betas:
            for g in gammas:
                sse, _, _ = fit(y, a, b, g, season, fitted)
                results[(a, b, g)] = sse
                print("alpha", a, "beta", b, "gamma", g, "rmse", repr(round(float(np.sqrt(sse / n)), 9)))
    return results


CHECKS = {
    "fit": lambda: (SALES[:], 0.3, 0.1, 0.2, np.zeros(M), np.zeros(len(SALES))),
    "fit#array": lambda: (np.array(SALES[:36]), 0.5, 0.05, 0.4, np.zeros(M), np.zeros(36)),
    "forecast": lambda: (150.0, 0.7, np.linspace(-5.0, 5.0, M), 72, 14),
    "init_state": lambda: (SALES[:], np.zeros(M)),
    "grid_search": lambda: (SALES[:36], [0.2, 0.6], [0.1], [0.3]),
}

if __name__ == "__main__":
    results = grid_search(SALES, ALPHAS, BETAS, GAMMAS)
    a, b, g = min(results, key=results.get)
    print("best", a, b, g, repr(round(float(results[(a, b, g)]), 6)))
    season = np.zeros(M)
    fitted = np.zeros(len(SALES))
    _, level, trend = fit(SALES, a, b, g, season, fitted)
    ahead = forecast(level, trend, season, len(SALES), 12)
    print("level", repr(round(level, 9)), "trend", repr(round(trend, 9)))
    print(np.round(ahead, 4))
