"""AdaBoost with decision stumps on a two-feature toy set, as machine-learning course scripts
write it: sample weights normalised in place (`w /= w.sum()`), the best stump per feature found
by sorting the feature once (np.argsort, kind="stable") and scanning thresholds with np.cumsum of
the weighted labels, the error of both polarities, `alpha = 0.5 * np.log((1 - err) / err)` with
the error clipped, the weights updated `w *= np.exp(-alpha * y * h)`, the ensemble's score
accumulated in an array handed in, the training error printed every two rounds.
"""
import numpy as np

rng = np.random.default_rng(4)
X = rng.uniform(-1.0, 1.0, size=(40, 2))
Y = np.where(X[:, 0] ** 2 + 0.5 * X[:, 1] > 0.2, 1, -1)


def best_stump(x, y, w):
    n, d = x.shape
    best = (np.inf, 0, 0.0, 1)
    for j in range(d):
        order = np.argsort(x[:, j], kind="stable")
        xs = x[order, j]
        wy = (w * y)[order]
        # predicting +1 above the threshold: error = weight of +1 at or below plus -1 above
        pos_below = np.cumsum(np.where(y[order] > 0, w[order], 0.0))
        neg_below = np.cumsum(np.where(y[order] < 0, w[order], 0.0))
        neg_total = neg_below[-1]
        err_up = pos_below + (neg_total - neg_below)
        err_down = 1.0 - err_up
        for k in range(n - 1):
            if xs[k] == xs[k + 1]:
                continue
            thr = 0.5 * (xs[k] + xs[k + 1])
            if err_up[k] < best[0]:
                best = (err_up[k], j, thr, 1)
            if err_down[k] < best[0]:
                best = (err_down[k], j, thr, -1)
        assert abs(wy.sum() - (w * y).sum()) < 1e-12
    return best


def stump_predict(x, j, thr, polarity):
    return np.where(x[:, j] > thr, polarity, -polarity)


def boost(x, y, rounds, score):
    n = x.shape[0]
    w = np.full(n, 1.0 / n)
    alphas = np.zeros(rounds)
    errors = np.zeros(rounds)
    for t in range(rounds):
        err, j, thr, pol = best_stump(x, y, w)
        err = min(max(err, 1e-10), 1.0 - 1e-10)
        alpha = 0.5 * np.log((1.0 - err) / err)
        h = stump_predict(x, j, thr, pol)
        w *= np.exp(-alpha * y * h)
        w /= w.sum()
        score += alpha * h
        alphas[t] = alpha
        errors[t] = np.mean(np.sign(score) != y)
        if t % 2 == 0:
            print("round", t, "feature", j, "thr", repr(round(float(thr), 9)), "train err", errors[t])
    return alphas, errors, w


CHECKS = {
    "boost": lambda: (X.copy(), Y.copy(), 6, np.zeros(40)),
    "best_stump": lambda: (X.copy(), Y.copy(), np.full(40, 1.0 / 40)),
    "best_stump#ties": lambda: (np.round(X, 1), Y.copy(), np.linspace(1.0, 2.0, 40) / 60.0),
    "stump_predict": lambda: (X.copy(), 1, 0.1, -1),
}

if __name__ == "__main__":
    score = np.zeros(X.shape[0])
    alphas, errors, w = boost(X, Y, 10, score)
    print("alphas", np.round(alphas, 6))
    print("final err", errors[-1], "max weight", repr(round(float(w.max()), 9)))
    grid = np.stack(np.meshgrid(np.linspace(-1, 1, 5), np.linspace(-1, 1, 5)), axis=-1).reshape(-1, 2)
    print("margin", repr(round(float(np.abs(score).min()), 9)))
