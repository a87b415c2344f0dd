"""Graph algorithms on dense arrays: BFS levels with a boolean frontier mask and an adjacency matrix,
Floyd-Warshall with np.minimum(..., out=dist) and an inf diagonal set to 0, and union-find with
path halving over an int array of parents, components counted at the end.
"""
import numpy as np


def bfs_levels(adj, src):
    n = adj.shape[0]
    level = np.full(n, -1, dtype=np.int64)
    level[src] = 0
    frontier = np.zeros(n, dtype=bool)
    frontier[src] = True
    d = 0
    while frontier.any():
        d += 1
        nxt = adj[frontier].any(axis=0) & (level < 0)
        level[nxt] = d
        frontier = nxt
        if d > n:
            break
    return level, d - 1


def floyd(w):
    dist = w.copy()
    np.fill_diagonal(dist, 0.0)
    n = dist.shape[0]
    for k in range(n):
        np.minimum(dist, dist[:, k:k + 1] + dist[k:k + 1, :], out=dist)
    reach = np.isfinite(dist).sum(axis=1)
    return dist, reach


def find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def union_find(n, edges):
    parent = np.arange(n)
    rank = np.zeros(n, dtype=np.int8)
    for a, b in edges:
        ra, rb = find(parent, a), find(parent, b)
        if ra == rb:
            continue
        if rank[ra] < rank[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        if rank[ra] == rank[rb]:
            rank[ra] += 1
    roots = np.array([find(parent, i) for i in range(n)])
    return len(np.unique(roots)), parent, rank


def make_graph():
    rng = np.random.default_rng(9)
    adj = rng.random((10, 10)) < 0.18
    adj = adj | adj.T
    np.fill_diagonal(adj, False)
    w = np.where(adj, rng.integers(1, 9, (10, 10)).astype(float), np.inf)
    return adj, w


EDGES = [(0, 1), (2, 3), (1, 3), (4, 5), (6, 6), (7, 8), (8, 4), (0, 2)]
CHECKS = {"bfs_levels": lambda: (make_graph()[0], 0), "floyd": lambda: (make_graph()[1],),
          "union_find": lambda: (10, EDGES), "find": lambda: (np.array([0, 0, 1, 2, 3, 4]), 5)}

if __name__ == "__main__":
    adj, w = make_graph()
    lv, depth = bfs_levels(adj, 0)
    print(lv, depth)
    d, reach = floyd(w)
    print(repr(d[np.isfinite(d)].sum()), reach)
    print(union_find(10, EDGES))
