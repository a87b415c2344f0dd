"""Ant colony optimisation for a small travelling salesman instance: cities at module level, a
distance matrix by broadcasting with an inf diagonal, each ant builds a tour with a boolean
visited mask and roulette-wheel selection (np.cumsum of attractiveness, np.searchsorted of a
uniform draw), tours kept in an int32 array, pheromone evaporated in place (`tau *= 1 - RHO`)
and deposited on both directions with np.add.at, the best tour copied with `best[:] = tour`.
"""
import numpy as np

rng = np.random.default_rng(5)
N_CITIES = 9
CITIES = rng.random((N_CITIES, 2)) * 100.0
ALPHA, BETA, RHO, Q = 1.0, 2.0, 0.3, 100.0


def distances(xy):
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=-1))
    d = np.floor(d + 0.5)  # TSPLIB's EUC_2D: whole distances, so tour lengths sum exactly
    np.fill_diagonal(d, np.inf)
    return d


def tour_length(tour, dist):
    return dist[tour, np.roll(tour, -1)].sum()


def build_tour(tau, eta, start, u, tour):
    n = tau.shape[0]
    visited = np.zeros(n, dtype=bool)
    tour[0] = start
    visited[start] = True
    for k in range(1, n):
        here = tour[k - 1]
        w = (tau[here] ** ALPHA) * (eta[here] ** BETA)
        w[visited] = 0.0
        cdf = np.cumsum(w)
        nxt = np.searchsorted(cdf, u[k] * cdf[-1], side="right")
        nxt = min(nxt, n - 1)
        tour[k] = nxt
        visited[nxt] = True


def deposit(tau, tours, lengths):
    for a in range(tours.shape[0]):
        t = tours[a]
        nxt = np.roll(t, -1)
        np.add.at(tau, (t, nxt), Q / lengths[a])
        np.add.at(tau, (nxt, t), Q / lengths[a])


def colony(dist, n_ants, n_iter, seed):
    rng = np.random.default_rng(seed)
    n = dist.shape[0]
    eta = 1.0 / dist
    tau = np.ones((n, n))
    tours = np.zeros((n_ants, n), dtype=np.int32)
    lengths = np.zeros(n_ants)
    best = np.zeros(n, dtype=np.int32)
    best_len = np.inf
    history = np.zeros(n_iter)
    for it in range(n_iter):
        starts = rng.integers(0, n, size=n_ants)
        draws = rng.random((n_ants, n))
        for a in range(n_ants):
            build_tour(tau, eta, starts[a], draws[a], tours[a])
            lengths[a] = tour_length(tours[a], dist)
        a_best = np.argmin(lengths)
        if lengths[a_best] < best_len:
            best_len = lengths[a_best]
            best[:] = tours[a_best]
        tau *= 1.0 - RHO
        deposit(tau, tours, lengths)
        history[it] = best_len
    return best, best_len, history, tau


CHECKS = {
    "colony": lambda: (distances(CITIES[:6]), 4, 3, 1),
    "build_tour": lambda: (np.ones((5, 5)), 1.0 / distances(CITIES[:5]), 2, np.linspace(0.1, 0.9, 5),
                           np.zeros(5, dtype=np.int32)),
    "deposit": lambda: (np.ones((4, 4)), np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32),
                        np.array([2.0, 2.5])),
    "tour_length": lambda: (np.array([0, 2, 1, 3], dtype=np.int32), distances(CITIES[:4])),
}

if __name__ == "__main__":
    dist = distances(CITIES)
    print(repr(tour_length(np.arange(N_CITIES), dist)))
    for seed in (0, 1):
        best, best_len, history, tau = colony(dist, 6, 8, seed)
        print(seed, best, repr(best_len), best.dtype)
        print("  ", np.round(history, 6), repr(tau.max()))
