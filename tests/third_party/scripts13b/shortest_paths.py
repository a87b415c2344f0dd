"""Shortest paths on arrays (the pattern of algorithms-course scripts): Dijkstra on a dense
weight matrix with `np.inf` for missing edges, the next vertex by `np.argmin(np.where(done,
np.inf, dist))`, a `break` when only unreachable vertices are left, relaxation by a masked
`dist[better] = cand[better]` and `prev[better] = u`; Bellman-Ford over an edge list in int64
arrays with an early exit when a sweep changes nothing and a negative cycle check that returns
early; a path read back through `prev` in a `while` into a Python list; Johnson-style
reweighting by the Bellman-Ford potentials with `w + h[:, None] - h[None, :]`.
"""
import numpy as np

N = 7


def random_graph(rng, n, p, negative=False):
    W = np.full((n, n), np.inf)
    mask = rng.random((n, n)) < p
    np.fill_diagonal(mask, False)
    W[mask] = rng.integers(1, 10, size=mask.sum()).astype(np.float64)
    if negative:
        W[mask & (rng.random((n, n)) < 0.2)] -= 3.0
    return W


def random_graph_full(rng, n, p, negative=False):
    # the same graph kind with every draw made for the whole matrix (no size from data)
    mask = rng.random((n, n)) < p
    np.fill_diagonal(mask, False)
    W = np.where(mask, rng.integers(1, 10, size=(n, n)).astype(np.float64), np.inf)
    if negative:
        W[mask & (rng.random((n, n)) < 0.2)] -= 3.0
    return W


def dijkstra(W, src, dist, prev):
    n = W.shape[0]
    done = np.zeros(n, dtype=bool)
    dist[:] = np.inf
    prev[:] = -1
    dist[src] = 0.0
    for _ in range(n):
        u = np.argmin(np.where(done, np.inf, dist))
        if dist[u] == np.inf:
            break
        done[u] = True
        cand = dist[u] + W[u]
        better = ~done & (cand < dist)
        dist[better] = cand[better]
        prev[better] = u
    return int(done.sum())


def bellman_ford(n, edges_u, edges_v, weights, src):
    dist = np.full(n, np.inf)
    dist[src] = 0.0
    for sweep in range(n - 1):
        changed = False
        for k in range(edges_u.size):
            a, b = edges_u[k], edges_v[k]
            if dist[a] + weights[k] < dist[b]:
                dist[b] = dist[a] + weights[k]
                changed = True
        if not changed:
            break
    for k in range(edges_u.size):
        if dist[edges_u[k]] + weights[k] < dist[edges_v[k]]:
            return dist, False
    return dist, True


def path_to(prev, target):
    path = []
    v = target
    while v != -1:
        path.append(int(v))
        v = prev[v]
    path.reverse()
    return path


def edges_of(W):
    u, v = np.nonzero(np.isfinite(W))
    return u, v, W[u, v]


def johnson(W, h):
    Wr = W + h[:, None] - h[None, :]
    D = np.empty_like(W)
    prev = np.empty(W.shape[0], dtype=np.int64)
    for s in range(W.shape[0]):
        dijkstra(Wr, s, D[s], prev)
    D += h[None, :] - h[:, None]
    return D


CHECKS = {
    "random_graph": lambda: (np.random.default_rng(0), 5, 0.4),
    "random_graph_full": lambda: (np.random.default_rng(0), 5, 0.4, True),
    "dijkstra": lambda: (random_graph(np.random.default_rng(1), N, 0.35), 0, np.zeros(N), np.zeros(N, dtype=np.int64)),
    "dijkstra#sparse": lambda: (random_graph(np.random.default_rng(2), N, 0.1), 3, np.zeros(N),
                                np.zeros(N, dtype=np.int64)),
    "bellman_ford": lambda: (N, *edges_of(random_graph(np.random.default_rng(3), N, 0.3, negative=True)), 0),
    "bellman_ford#cycle": lambda: (3, np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1.0, -2.0, -1.0]), 0),
    "path_to": lambda: (np.array([-1, 0, 1, 1, 3]), 4),
    "johnson": lambda: (random_graph(np.random.default_rng(4), 5, 0.5), np.array([0.0, -1.0, 0.0, -2.0, 0.5])),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    W = random_graph_full(rng, 10, 0.3)
    dist = np.empty(10)
    prev = np.empty(10, dtype=np.int64)
    reached = dijkstra(W, 0, dist, prev)
    print("reached", reached, "dist", dist)
    for t in range(1, 10, 3):
        path = [t]  # read back here: path_to's list grows in a `while` on data (NPR034)
        while prev[path[-1]] != -1:
            path.append(int(prev[path[-1]]))
        print("path to", t, path[::-1])
    Wn = random_graph_full(rng, 10, 0.3, negative=True)
    u, v, w = edges_of(Wn)
    d_bf, ok = bellman_ford(10, u, v, w, 0)
    print("bellman-ford", ok, d_bf)
    # Johnson: potentials from a virtual source joined to every vertex
    hu = np.concatenate([u + 1, np.zeros(10, dtype=np.int64)])
    hv = np.concatenate([v + 1, np.arange(1, 11)])
    hw = np.concatenate([w, np.zeros(10)])
    h, ok = bellman_ford(11, hu, hv, hw, 0)
    if ok:
        D = johnson(Wn, h[1:])
        print("johnson row 0", D[0])
        print("agrees", bool(np.allclose(D[0][np.isfinite(D[0])], d_bf[np.isfinite(d_bf)])))
