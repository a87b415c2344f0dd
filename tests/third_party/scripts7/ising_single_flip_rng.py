"""Single-spin-flip Metropolis on a periodic lattice with `np.random.default_rng` draws inside the
sweep (`rng.integers` for the site, `rng.random()` for acceptance), the energy and magnetisation
kept as running Python numbers (`E += dE`, `M += 2 * s`), int64 spins, neighbour sums with
`% L` indices, and observables averaged after a burn-in.
"""
import numpy as np

L = 10


def total_energy(s):
    return -int(np.sum(s * (np.roll(s, 1, axis=0) + np.roll(s, 1, axis=1))))


def sweep(s, beta, rng, E, M):
    n = s.shape[0]
    for _ in range(n * n):
        i = rng.integers(n)
        j = rng.integers(n)
        nb = s[(i + 1) % n, j] + s[i - 1, j] + s[i, (j + 1) % n] + s[i, j - 1]
        dE = 2 * s[i, j] * nb
        if dE <= 0 or rng.random() < np.exp(-beta * dE):
            s[i, j] = -s[i, j]
            E += dE
            M += 2 * s[i, j]
    return E, M


def run(seed, beta, nsweeps, burn):
    rng = np.random.default_rng(seed)
    s = rng.choice(np.array([-1, 1]), size=(L, L))
    E = total_energy(s)
    M = int(s.sum())
    es, ms = [], []
    for k in range(nsweeps):
        E, M = sweep(s, beta, rng, E, M)
        if k >= burn:
            es.append(E)
            ms.append(abs(M))
    return s, E, M, np.mean(es), np.mean(ms), total_energy(s) == E


CHECKS = {"run": lambda: (3, 0.44, 6, 2), "run#hot": lambda: (5, 0.1, 4, 1)}

if __name__ == "__main__":
    s, E, M, e_mean, m_mean, ok = run(3, 0.44, 10, 4)
    print(E, M, repr(e_mean), repr(m_mean), ok, s.dtype, repr(s.sum()))
