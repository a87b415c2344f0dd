"""k-means in the style of teaching notebooks: centroids copied before the update
(`old = C.copy()`, then `C = C.copy()` and writes into the new buffer), assignments by
`np.argmin` over a distance matrix, sums by `np.add.at` and counts by `np.bincount`,
an empty cluster kept where it was by a boolean mask, and an early return on convergence.
"""
import numpy as np

K = 3


def make(seed, n):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [3.0, 1.0], [0.5, 3.5]])
    X = centres[rng.integers(0, K, n)] + 0.4 * rng.standard_normal((n, 2))
    return X, X[:K].copy()


def kmeans(X, C, iters, tol):
    shifts = []
    for it in range(iters):
        old = C.copy()
        d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        sums = np.zeros_like(C)
        np.add.at(sums, labels, X)
        counts = np.bincount(labels, minlength=K)
        C = C.copy()
        filled = counts > 0
        C[filled] = sums[filled] / counts[filled, None]
        shift = np.abs(C - old).max()
        shifts.append(shift)
        if shift < tol:
            return C, labels, it + 1, shifts
    return C, labels, iters, shifts


CHECKS = {
    "kmeans": lambda: make(2, 60) + (20, 1e-9),
    "kmeans#short": lambda: make(3, 40) + (2, 1e-9),
}

if __name__ == "__main__":
    X, C0 = make(2, 60)
    C, labels, its, shifts = kmeans(X, C0, 20, 1e-9)
    print(np.round(C, 10).tolist(), np.bincount(labels).tolist(), its, len(shifts), repr(C0.sum()))
