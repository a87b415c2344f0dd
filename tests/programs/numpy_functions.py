"""NumPy functions with static-shape rules (issue 19): ufunc methods, bincount, histogram, index
helpers, np.ndindex loops and np.mgrid/np.ogrid, as real kernels call them."""

import numpy as np


def pair_energy(x, q):
    r = np.abs(np.subtract.outer(x, x)) + np.eye(x.size)
    e = np.multiply.outer(q, q) / r
    return np.add.reduce(np.triu(e, 1), axis=None), np.maximum.accumulate(x), np.minimum.outer(x, q)


def counts(labels, w):
    return np.bincount(labels, minlength=6), np.bincount(labels, weights=w, minlength=6)


def counts_free(labels):
    return np.bincount(labels)


def hist(a, w):
    h, edges = np.histogram(a, bins=7, range=(0.0, 1.0))
    hw, _ = np.histogram(a, 5, range=(0.1, 0.9), weights=w)
    hd, edges_d = np.histogram(a, bins=7)
    return h, edges, hw, hd, edges_d


def hist_edges(a, w, edges):
    h, e = np.histogram(a, bins=edges)
    hw, _ = np.histogram(a, edges, weights=w)
    hd, known = np.histogram(a, bins=np.array([0.0, 0.25, 0.5, 1.0]), density=True)
    return h, e, hw, hd, known


def hist_auto(a):
    return np.histogram(a, bins="auto")


def upper(a):
    i, j = np.triu_indices(a.shape[0], 1)
    a[np.diag_indices_from(a)] = 0.0
    a[np.ix_([0, 2], [1, 3])] += 1.0
    lo = np.tril_indices(a.shape[0], -1, a.shape[1])
    return a[i, j].sum() + a[lo].sum()


def rows_cols(a, rows, cols):
    return a[np.ix_(rows, cols)]


def double_each(a):
    out = np.zeros(a.shape)
    for pos in np.ndindex(a.shape):
        out[pos] = a[pos] * 2 + pos[0]
    return out


def grid(a):
    x, y = np.mgrid[0:3, 0:4]
    gx, gy = np.ogrid[0:1:3j, 0:4]
    out = np.ndarray(a.shape)  # uninitialised (np.empty), filled below
    out[...] = a + x * y + gx * gy
    first = np.ndarray(shape=(3,), dtype=np.int32)
    first[:] = x[:, 0]
    return out, first
