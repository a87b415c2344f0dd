"""UPGMA clustering of sequences into a guide tree (the pattern of phylogenetics teaching scripts):
int8-coded DNA sequences mutated from an ancestor with a Generator, p-distances by a double loop
`np.mean(seqs[i] != seqs[j])` and the Jukes-Cantor correction under `np.errstate` (saturated
pairs `np.inf`), the closest pair by `np.argmin` of a matrix whose diagonal and used rows are
`np.inf` (`np.unravel_index`), the merged row written in place as the size-weighted mean
(`D[a] = (na * D[a] + nb * D[b]) / (na + nb)`, `D[:, a] = D[a]`), the other row retired with
`D[b] = np.inf; D[:, b] = np.inf`, node heights and int64 children arrays, cluster sizes in an
int64 array, and the tree printed as nested tuples by a recursive helper.
"""
import numpy as np

BASES = 4


def evolve(rng, n_taxa, length, rate):
    root = rng.integers(0, BASES, size=length).astype(np.int8)
    seqs = np.empty((n_taxa, length), dtype=np.int8)
    for k in range(n_taxa):
        seqs[k] = root
        flip = rng.random(length) < rate * (1 + k % 3)
        seqs[k][flip] = (seqs[k][flip] + rng.integers(1, BASES, size=length)[flip]) % BASES
    return seqs


def evolve_named(rng, n_taxa, length, rate):
    # the same with the substitutions drawn into a name first (evolve's form is refused, NPR107)
    root = rng.integers(0, BASES, size=length).astype(np.int8)
    seqs = np.empty((n_taxa, length), dtype=np.int8)
    for k in range(n_taxa):
        seqs[k] = root
        flip = rng.random(length) < rate * (1 + k % 3)
        step = rng.integers(1, BASES, size=length)
        seqs[k][flip] = (seqs[k][flip] + step[flip]) % BASES
    return seqs


def distances(seqs, D):
    n = seqs.shape[0]
    for i in range(n):
        D[i, i] = 0.0
        for j in range(i + 1, n):
            p = np.mean(seqs[i] != seqs[j])
            with np.errstate(divide="ignore", invalid="ignore"):
                d = -0.75 * np.log(1.0 - 4.0 * p / 3.0)
            if not np.isfinite(d):
                d = np.inf
            D[i, j] = d
            D[j, i] = d
    return D


def upgma(D, children, heights, sizes):
    n = D.shape[0]
    work = D.copy()
    np.fill_diagonal(work, np.inf)
    label = np.arange(n)
    sizes[:n] = 1
    for step in range(n - 1):
        flat = np.argmin(work)
        a, b = np.unravel_index(flat, work.shape)
        if a > b:
            a, b = b, a
        node = n + step
        children[step, 0] = label[a]
        children[step, 1] = label[b]
        heights[step] = work[a, b] / 2.0
        na, nb = sizes[label[a]], sizes[label[b]]
        sizes[node] = na + nb
        merged = (na * work[a] + nb * work[b]) / (na + nb)
        work[a] = merged
        work[:, a] = merged
        work[a, a] = np.inf
        work[b] = np.inf
        work[:, b] = np.inf
        label[a] = node
    return heights[n - 2]


def newick(children, heights, node, n):
    if node < n:
        return f"t{node}"
    left, right = children[node - n]
    return f"({newick(children, heights, left, n)},{newick(children, heights, right, n)}):{heights[node - n]:.4f}"


def build(seqs):
    n = seqs.shape[0]
    D = distances(seqs, np.empty((n, n)))
    children = np.zeros((n - 1, 2), dtype=np.int64)
    heights = np.zeros(n - 1)
    sizes = np.zeros(2 * n - 1, dtype=np.int64)
    root_height = upgma(D, children, heights, sizes)
    return D, children, heights, sizes, root_height


CHECKS = {
    "evolve": lambda: (np.random.default_rng(3), 3, 12, 0.2),
    "evolve_named": lambda: (np.random.default_rng(3), 3, 12, 0.2),
    "distances": lambda: (evolve(np.random.default_rng(1), 5, 40, 0.05), np.zeros((5, 5))),
    "distances#saturated": lambda: (np.array([[0, 1, 2, 3], [1, 2, 3, 0], [0, 1, 2, 0]], dtype=np.int8), np.zeros((3, 3))),
    "upgma": lambda: (np.array([[0.0, 2.0, 6.0, 10.0], [2.0, 0.0, 6.0, 10.0], [6.0, 6.0, 0.0, 10.0],
                                [10.0, 10.0, 10.0, 0.0]]), np.zeros((3, 2), dtype=np.int64), np.zeros(3),
                      np.zeros(7, dtype=np.int64)),
    "newick": lambda: (np.array([[0, 1], [2, 3]]), np.array([0.5, 1.25]), 4, 3),
    "build": lambda: (evolve(np.random.default_rng(2), 6, 60, 0.04),),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    seqs = evolve_named(rng, 8, 120, 0.03)
    D, children, heights, sizes, root_height = build(seqs)
    print("distances", repr(np.round(D[0], 6)))
    print("children", children.tolist())
    print("heights", repr(np.round(heights, 6)), "root", round(float(root_height), 6))
    print("sizes", sizes[8:].tolist(), sizes.dtype)
    print(" ".join(f"{h:.4f}" for h in heights))  # newick() formats traced values (NPR031)
