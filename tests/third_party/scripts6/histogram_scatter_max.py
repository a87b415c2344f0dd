"""Binning particle energies: `np.add.at` counts, `np.maximum.at` / `np.minimum.at` per-bin
extremes, a buffered `counts2[idx] += 1` beside them (duplicates count once), masked
out-of-range bins, a cumulative distribution by `np.cumsum`, and the peak bin found with an
explicit argmax loop and with `np.argmax`.
"""
import numpy as np

NBINS = 12
SEED = 3


def make_energies(n, seed):
    rng = np.random.default_rng(seed)
    return rng.gamma(2.0, 0.7, size=n)


def histogram(e, lo, hi, nbins):
    width = (hi - lo) / nbins
    idx = np.floor((e - lo) / width).astype(np.int64)
    inside = (idx >= 0) & (idx < nbins)
    idx = np.where(inside, idx, nbins)
    counts = np.zeros(nbins + 1, dtype=np.int64)
    np.add.at(counts, idx, 1)
    emax = np.full(nbins + 1, -np.inf)
    emin = np.full(nbins + 1, np.inf)
    np.maximum.at(emax, idx, e)
    np.minimum.at(emin, idx, e)
    buffered = np.zeros(nbins + 1, dtype=np.int64)
    buffered[idx] += 1
    return counts[:nbins], emax[:nbins], emin[:nbins], buffered, counts[nbins]


def cdf_and_peak(counts):
    cdf = np.cumsum(counts)
    cdf = cdf / cdf[-1]
    best, best_k = -1, -1
    for k in range(counts.shape[0]):
        if counts[k] > best:
            best = counts[k]
            best_k = k
    median_bin = np.argmax(cdf >= 0.5)
    return cdf, best_k, best, median_bin, np.argmax(counts)


def run(e, lo, hi):
    counts, emax, emin, buffered, overflow = histogram(e, lo, hi, NBINS)
    cdf, k, best, med, am = cdf_and_peak(counts)
    spread = np.where(counts > 0, emax - emin, 0.0)
    return counts, spread, buffered, overflow, cdf, k, best, med, am


CHECKS = {
    "run": lambda: (make_energies(300, SEED), 0.0, 4.0),
    "run#narrow": lambda: (make_energies(200, SEED + 1), 0.5, 2.0),
    "cdf_and_peak": lambda: (np.array([3, 9, 9, 2, 0, 11, 11, 1]),),
}

if __name__ == "__main__":
    out = run(make_energies(300, SEED), 0.0, 4.0)
    counts, spread, buffered, overflow, cdf, k, best, med, am = out
    print(counts.tolist(), buffered.tolist(), repr(overflow), type(overflow).__name__)
    print(np.round(spread, 12).tolist())
    print(repr(cdf[5]), k, type(k).__name__, repr(best), type(best).__name__, repr(med), repr(am))
