"""k-means++ seeding and Lloyd iterations on blobs: the first centre drawn with rng.integers,
later ones with probability proportional to the squared distance to the nearest chosen centre
(np.cumsum and np.searchsorted of a uniform draw, distances kept and shrunk in place with
np.minimum(..., out=)), assignments by np.argmin of a (points, centres) distance matrix, sums
by np.add.at and counts by np.bincount(minlength=), an empty cluster re-seeded at the point
farthest from its centre, convergence on the centre shift with a `break`, the inertia history
in a preallocated array, several restarts with seeds from a module-level list keeping the best.
"""
import numpy as np

K = 4
SEEDS = [1, 2, 3]
rng0 = np.random.default_rng(99)
TRUE = np.array([[0.0, 0.0], [4.0, 0.5], [1.0, 4.0], [5.0, 5.0]])
DATA = np.concatenate([c + 0.6 * rng0.standard_normal((30, 2)) for c in TRUE])


def sqdist(x, c):
    d = x[:, None, :] - c[None, :, :]
    return np.einsum("ijk,ijk->ij", d, d)


def seed_centres(x, k, rng):
    n = x.shape[0]
    centres = np.empty((k, x.shape[1]))
    centres[0] = x[rng.integers(n)]
    closest = np.sum((x - centres[0]) ** 2, axis=1)
    for j in range(1, k):
        cdf = np.cumsum(closest)
        r = rng.random() * cdf[-1]
        idx = np.searchsorted(cdf, r, side="right")
        idx = min(idx, n - 1)
        centres[j] = x[idx]
        np.minimum(closest, np.sum((x - centres[j]) ** 2, axis=1), out=closest)
    return centres


def lloyd(x, centres, maxit, tol):
    k = centres.shape[0]
    inertia = np.zeros(maxit)
    reseeded = 0
    its = maxit
    for it in range(maxit):
        d = sqdist(x, centres)
        labels = np.argmin(d, axis=1)
        inertia[it] = d[np.arange(x.shape[0]), labels].sum()
        sums = np.zeros_like(centres)
        np.add.at(sums, labels, x)
        counts = np.bincount(labels, minlength=k)
        new = centres.copy()
        for j in range(k):
            if counts[j] > 0:
                new[j] = sums[j] / counts[j]
            else:
                far = np.argmax(d[np.arange(x.shape[0]), labels])
                new[j] = x[far]
                reseeded += 1
        shift = np.sqrt(((new - centres) ** 2).sum(axis=1)).max()
        centres[...] = new
        if shift < tol:
            its = it + 1
            break
    return labels, inertia, its, reseeded


def best_of(x, k, seeds, maxit=30):
    best = np.inf
    best_labels = np.zeros(x.shape[0], dtype=np.int64)
    best_centres = np.zeros((k, x.shape[1]))
    for s in seeds:
        rng = np.random.default_rng(s)
        c = seed_centres(x, k, rng)
        labels, inertia, its, reseeded = lloyd(x, c, maxit, 1e-9)
        final = inertia[its - 1]
        print("seed", s, "its", its, "reseeded", reseeded, "inertia", repr(round(float(final), 9)))
        if final < best:
            best = final
            best_labels[:] = labels
            best_centres[:] = c
    return best, best_labels, best_centres


CHECKS = {
    "seed_centres": lambda: (DATA.copy(), K, np.random.default_rng(5)),
    "lloyd": lambda: (DATA.copy(), DATA[[0, 40, 80, 110]].copy(), 20, 1e-9),
    "lloyd#empty": lambda: (DATA.copy(), np.array([[0.0, 0.0], [1.0, 0.0], [50.0, 50.0], [5.0, 5.0]]), 10, 1e-9),
    "best_of": lambda: (DATA.copy(), K, [7, 8]),
    "sqdist": lambda: (DATA[:5].copy(), TRUE.copy()),
}

if __name__ == "__main__":
    best, labels, centres = best_of(DATA, K, SEEDS)
    print("best", repr(round(float(best), 9)))
    print(np.bincount(labels, minlength=K))
    print(np.round(centres[np.argsort(centres[:, 0], kind="stable")], 6))
