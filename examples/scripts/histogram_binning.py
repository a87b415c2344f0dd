"""Binning a stream of samples: np.digitize, np.add.at, np.bincount with weights, batch loop.

Samples arrive in batches drawn from a seeded Generator before the loop; each batch is binned
with np.digitize, counts accumulated with np.add.at (repeated bins must all count), weighted
sums with np.bincount(..., weights=, minlength=) added into a running array, and the
under/overflow bins clipped away with np.clip. Mean per bin and a chi-square against the
expected normal counts are printed at the end.
"""
import numpy as np

ENTRY = "accumulate"
NBINS = 12
LO, HI = -3.0, 3.0


def accumulate(batches, counts, sums, sq):
    edges = np.linspace(LO, HI, NBINS + 1)
    outside = 0
    for b in range(batches.shape[0]):
        x = batches[b]
        idx = np.digitize(x, edges) - 1
        inside = (idx >= 0) & (idx < NBINS)
        outside += int(np.sum(~inside))
        idx = np.clip(idx, 0, NBINS - 1)
        w = inside.astype(np.float64)
        np.add.at(counts, idx[inside], 1)
        sums += np.bincount(idx, weights=x * w, minlength=NBINS)
        np.add.at(sq, idx, w * x * x)
    mean = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
    return mean, outside


def chi_square(counts, n):
    edges = np.linspace(LO, HI, NBINS + 1)
    from math import erf, sqrt
    cdf = np.array([0.5 * (1.0 + erf(e / sqrt(2.0))) for e in edges])
    expected = n * np.diff(cdf)
    return float(np.sum((counts - expected) ** 2 / expected))


def make_inputs(size="small"):
    nb, m = (4, 25) if size == "small" else (50, 400)
    rng = np.random.default_rng(9)
    return dict(batches=rng.standard_normal((nb, m)), counts=np.zeros(NBINS, dtype=np.int64),
                sums=np.zeros(NBINS), sq=np.zeros(NBINS))


if __name__ == "__main__":
    inputs = make_inputs("large")
    mean, outside = accumulate(**inputs)
    n = inputs["batches"].size
    print(repr(outside), repr(inputs["counts"].tolist()), repr(mean.tolist()))
    print(repr(inputs["sq"].sum()), repr(chi_square(inputs["counts"], n)))
