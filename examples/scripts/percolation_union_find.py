"""Site percolation on a square lattice, clusters labelled by union-find with path halving.

Sites are occupied with probability P from a seeded Generator; each occupied site is joined to
its occupied left and upper neighbours. `find` walks parent pointers in a `while parent[i] !=
i` loop and halves the path in place (`parent[i] = parent[parent[i]]`); `union` links the
smaller root under the larger (size array updated in place). Cluster sizes are read off the
roots; whether a cluster spans top to bottom is checked with sets of root labels. The largest
cluster's fraction is printed for a few probabilities.
"""
import numpy as np

ENTRY = "label"


def find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def union(parent, size, a, b):
    ra = find(parent, a)
    rb = find(parent, b)
    if ra == rb:
        return
    if size[ra] < size[rb]:
        ra, rb = rb, ra
    parent[rb] = ra
    size[ra] += size[rb]


def label(occupied, parent, size):
    n = occupied.shape[0]
    for r in range(n):
        for c in range(n):
            if not occupied[r, c]:
                continue
            k = r * n + c
            if c > 0 and occupied[r, c - 1]:
                union(parent, size, k, k - 1)
            if r > 0 and occupied[r - 1, c]:
                union(parent, size, k, k - n)
    roots = np.array([find(parent, k) for k in range(n * n)])
    largest = int(np.max(np.where(occupied.ravel(), size[roots], 0)))
    return roots, largest


def spans(occupied, roots):
    n = occupied.shape[0]
    top = set(roots[:n][occupied[0]].tolist())
    bottom = set(roots[-n:][occupied[-1]].tolist())
    return len(top & bottom) > 0


def make_inputs(size="small", p=0.6, seed=3):
    n = 6 if size == "small" else 40
    rng = np.random.default_rng(seed)
    occupied = rng.random((n, n)) < p
    return dict(occupied=occupied, parent=np.arange(n * n), size=np.ones(n * n, dtype=np.int64))


if __name__ == "__main__":
    for p in (0.5, 0.59, 0.7):
        inputs = make_inputs("large", p=p)
        roots, largest = label(**inputs)
        n2 = inputs["occupied"].size
        print(repr(p), repr(largest / n2), repr(spans(inputs["occupied"], roots)),
              repr(int(inputs["parent"].sum())), repr(int(inputs["size"].max())))
