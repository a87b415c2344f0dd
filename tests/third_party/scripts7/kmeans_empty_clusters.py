"""Lloyd's k-means with empty-cluster handling: labels by argmin of squared distances, centroid
sums by `np.add.at` and counts by `np.bincount(labels, minlength=k)`, an empty cluster re-seeded
at the point farthest from its centroid (`far = d.min(axis=1).argmax()`), a fixed iteration budget
with `break` when the shift is below tol, float32 data and float64 centroids.
"""
import numpy as np


def assign(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    return d.argmin(axis=1), d


def update(X, labels, d, C):
    k = C.shape[0]
    sums = np.zeros_like(C)
    np.add.at(sums, labels, X)
    counts = np.bincount(labels, minlength=k)
    for c in range(k):
        if counts[c] == 0:
            far = d.min(axis=1).argmax()
            C[c] = X[far]
            d[far, :] = 0.0
        else:
            C[c] = sums[c] / counts[c]
    return counts


def kmeans(X, C, maxit, tol):
    it = 0
    for it in range(maxit):
        old = C.copy()
        labels, d = assign(X, C)
        counts = update(X, labels, d, C)
        shift = np.sqrt(((C - old) ** 2).sum(axis=1)).max()
        print("it", it, counts.tolist(), repr(float(shift)))
        if shift < tol:
            break
    inertia = ((X - C[labels]) ** 2).sum()
    return C, labels, inertia, it


def make_inputs():
    rng = np.random.default_rng(2)
    X = np.concatenate([rng.normal(m, 0.3, size=(20, 2)) for m in (-2.0, 0.0, 2.5)]).astype(np.float32)
    C = np.array([[-2.0, -2.0], [0.1, 0.0], [10.0, 10.0], [0.2, 0.1]])
    return X, C


CHECKS = {"kmeans": lambda: (*make_inputs(), 20, 1e-6), "kmeans#short": lambda: (*make_inputs(), 2, 1e-6),
          "update": lambda: (make_inputs()[0], np.zeros(60, np.int64), np.ones((60, 4)), make_inputs()[1])}

if __name__ == "__main__":
    X, C = make_inputs()
    C, labels, inertia, it = kmeans(X, C, 20, 1e-6)
    print(repr(C.round(6).tolist()), np.bincount(labels).tolist(), repr(inertia), it, labels.dtype)
