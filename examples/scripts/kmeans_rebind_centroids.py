"""k-means on 2-D points: centroids rebound each iteration, sums by np.add.at and np.bincount.

`centroids = new` rebinds after `new = centroids.copy()` is written for clusters that have
points (an empty cluster keeps its old centre); the loop stops when no label changes (a `while`
on data with a `break`), and inertia values go to a Python list.
"""
import numpy as np

ENTRY = "kmeans"


def assign(X, centroids):
    d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d, axis=1), d.min(axis=1).sum()


def kmeans(X, centroids, maxit):
    k = centroids.shape[0]
    labels = np.full(X.shape[0], -1)
    inertia = []
    it = 0
    while it < maxit:
        new_labels, J = assign(X, centroids)
        inertia.append(J)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        sums = np.zeros((k, 2))
        np.add.at(sums, labels, X)
        counts = np.bincount(labels, minlength=k)
        new = centroids.copy()
        has = counts > 0
        new[has] = sums[has] / counts[has, None]
        centroids = new
        it += 1
    print("iterations", it, "inertia", repr(float(inertia[-1])))
    return centroids, labels, it


def make_inputs(size="small"):
    n = 20 if size == "small" else 400
    rng = np.random.default_rng(17)
    X = np.concatenate([rng.normal(0.0, 0.5, (n // 2, 2)), rng.normal(3.0, 0.5, (n - n // 2, 2))])
    return dict(X=X, centroids=X[:3].copy(), maxit=20)


if __name__ == "__main__":
    c, labels, it = kmeans(**make_inputs("large"))
    print(repr(c.tolist()), int(labels.sum()), it)
