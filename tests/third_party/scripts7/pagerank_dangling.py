"""PageRank by power iteration on an edge list: out-degrees by `np.bincount`, dangling nodes'
mass spread uniformly, contributions scattered with `np.add.at(r_new, dst, r[src] / deg[src])`,
`r_new` allocated once and reused by `r_new.fill(0.0)`, `r, r_new = r_new, r` swaps, the L1 change
checked for `break`, personalisation vector, and the top nodes by `np.argsort(-r)[:k]`.
"""
import numpy as np


def pagerank(src, dst, n, alpha, tol, maxit, personal):
    deg = np.bincount(src, minlength=n).astype(np.float64)
    dangling = deg == 0
    r = np.full(n, 1.0 / n)
    r_new = np.empty(n)
    it = 0
    change = 0.0
    for it in range(1, maxit + 1):
        r_new.fill(0.0)
        np.add.at(r_new, dst, r[src] / deg[src])
        r_new *= alpha
        r_new += (alpha * r[dangling].sum() + 1.0 - alpha) * personal
        change = np.abs(r_new - r).sum()
        r, r_new = r_new, r
        if change < tol:
            break
    return r, it, change


def top(r, k):
    order = np.argsort(-r, kind="stable")[:k]
    return order, r[order]


def make_graph(n, m, seed):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n - 3, m)
    dst = (src + rng.integers(1, n, m)) % n
    return src, dst


CHECKS = {
    "pagerank": lambda: (*make_graph(30, 90, 1), 30, 0.85, 1e-10, 200, np.full(30, 1 / 30)),
    "pagerank#few": lambda: (*make_graph(30, 90, 1), 30, 0.85, 1e-10, 3, np.full(30, 1 / 30)),
    "top": lambda: (np.array([0.1, 0.3, 0.3, 0.05, 0.25]), 3),
}

if __name__ == "__main__":
    src, dst = make_graph(30, 90, 1)
    personal = np.full(30, 1 / 30)
    r, it, change = pagerank(src, dst, 30, 0.85, 1e-10, 200, personal)
    order, vals = top(r, 5)
    print(it, repr(change < 1e-10), order.tolist(), repr(vals.sum()), repr(r.sum()))
