"""Running statistics as a lab script keeps them: Welford's mean and variance in a Python loop over
a float32 array (the accumulators Python floats and NumPy scalars by turns), a bootstrap of the mean
with default_rng(...).integers, quantiles by np.sort and index arithmetic with `//`, and a
weighted histogram by np.add.at with negative (wrapped) bin indices.
"""
import numpy as np


def welford(x):
    n = 0
    mean = 0.0
    m2 = 0.0
    for v in x:
        n += 1
        d = v - mean
        mean += d / n
        m2 += d * (v - mean)
        if n % 20 == 0:
            print("n", n, mean)
    return mean, m2 / (n - 1), n


def bootstrap(x, reps, seed):
    rng = np.random.default_rng(seed)
    means = np.empty(reps)
    for r in range(reps):
        idx = rng.integers(0, x.shape[0], x.shape[0])
        means[r] = x[idx].mean()
    lo = np.sort(means)[reps // 40]
    hi = np.sort(means)[-(reps // 40) - 1]
    return means.mean(), lo, hi


def quantile_idx(x, q):
    s = np.sort(x)
    k = (len(s) - 1) * q
    i = int(k // 1)
    frac = k - i
    j = -(-len(s) // 4)
    return s[i] + (s[min(i + 1, len(s) - 1)] - s[i]) * frac, s[j], s[(-7) // 2]


def weighted_hist(vals, w, nbins):
    h = np.zeros(nbins)
    bins = np.floor(vals).astype(np.int64) % nbins - nbins
    np.add.at(h, bins, w)
    counts = np.zeros(nbins, dtype=np.int32)
    np.add.at(counts, bins, 1)
    return h, counts


def make_data():
    rng = np.random.default_rng(11)
    return (rng.standard_normal(60) * 2 + 5).astype(np.float32)


CHECKS = {"welford": lambda: (make_data(),), "bootstrap": lambda: (make_data().astype(np.float64), 80, 3),
          "quantile_idx": lambda: (make_data(), 0.3),
          "weighted_hist": lambda: (make_data(), np.linspace(0, 1, 60), 8)}

if __name__ == "__main__":
    x = make_data()
    m, v, n = welford(x)
    print(type(m).__name__, repr(m), repr(v), n)
    print(bootstrap(x.astype(np.float64), 80, 3))
    print(quantile_idx(x, 0.3))
    h, c = weighted_hist(x, np.linspace(0, 1, 60), 8)
    print(h.round(6), c, c.dtype)
