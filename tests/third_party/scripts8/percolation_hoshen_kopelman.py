"""Site percolation clusters by the Hoshen-Kopelman raster scan: an int32 label array filled
cell by cell, union-find in a NumPy int array (`labels[x] = y`, a `find` with path compression
in a `while`), the second pass relabelling through `find`, cluster sizes by `np.bincount`, whether
a cluster spans top to bottom by set intersection, and occupation drawn from a seeded Generator.
"""
import numpy as np


def find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root


def label(occ):
    n, m = occ.shape
    lab = np.zeros((n, m), dtype=np.int32)
    parent = np.arange(n * m + 1, dtype=np.int32)
    nxt = 1
    for i in range(n):
        for j in range(m):
            if not occ[i, j]:
                continue
            up = lab[i - 1, j] if i > 0 else 0
            left = lab[i, j - 1] if j > 0 else 0
            if up == 0 and left == 0:
                lab[i, j] = nxt
                nxt += 1
            elif up != 0 and left != 0:
                ru = find(parent, up)
                rl = find(parent, left)
                parent[max(ru, rl)] = min(ru, rl)
                lab[i, j] = min(ru, rl)
            else:
                lab[i, j] = max(up, left)
    for i in range(n):
        for j in range(m):
            if lab[i, j]:
                lab[i, j] = find(parent, lab[i, j])
    return lab, nxt - 1


def spans(lab):
    top = set(lab[0][lab[0] > 0].tolist())
    bottom = set(lab[-1][lab[-1] > 0].tolist())
    return len(top & bottom) > 0


def run(p, n, seed):
    occ = np.random.default_rng(seed).random((n, n)) < p
    lab, provisional = label(occ)
    sizes = np.bincount(lab.ravel())[1:]
    return lab, provisional, int(sizes.max()), spans(lab)


CHECKS = {
    "label": lambda: (np.random.default_rng(1).random((9, 9)) < 0.55,),
    "find": lambda: (np.array([0, 1, 1, 2, 3, 4], dtype=np.int32), 5),
}

if __name__ == "__main__":
    for p in (0.4, 0.6, 0.7):
        lab, provisional, largest, sp = run(p, 20, 4)
        print(p, provisional, largest, sp, len(np.unique(lab)) - 1)
