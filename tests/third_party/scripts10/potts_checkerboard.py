"""q-state Potts model, Metropolis on a checkerboard: the two sublattices are strided views
(`s[0::2, 0::2]` and friends) handed to a helper that writes them, neighbour counts by np.roll of
the whole lattice, int8 spins, a proposal drawn with np.random.randint, energies and
magnetisations written into a preallocated history array, a Python-int accept counter.
"""
import numpy as np

Q = 3
L = 12
J = 1.0
np.random.seed(7)
BETAS = [0.4, 1.1]


def neighbours_equal(s, value):
    """How many of the four neighbours of each site hold `value` (periodic)."""
    m = (s == value).astype(np.int32)
    return np.roll(m, 1, 0) + np.roll(m, -1, 0) + np.roll(m, 1, 1) + np.roll(m, -1, 1)


def energy(s):
    same = (s == np.roll(s, 1, 0)).sum() + (s == np.roll(s, 1, 1)).sum()
    return -J * same


def magnetisation(s):
    counts = np.bincount(s.ravel(), minlength=Q)
    return (Q * counts.max() / s.size - 1) / (Q - 1)


def sweep_colour(s, colour, beta, proposal, u):
    """Metropolis on one colour of the checkerboard; proposal and u are drawn for every site."""
    accepted = 0
    for r0 in (0, 1):
        c0 = (r0 + colour) % 2
        sub = s[r0::2, c0::2]
        old_n = np.zeros(sub.shape, dtype=np.int32)
        new_n = np.zeros(sub.shape, dtype=np.int32)
        for v in range(Q):
            nv = neighbours_equal(s, v)[r0::2, c0::2]
            old_n += np.where(sub == v, nv, 0)
            new_n += np.where(proposal[r0::2, c0::2] == v, nv, 0)
        dE = -J * (new_n - old_n)
        ok = (dE <= 0) | (u[r0::2, c0::2] < np.exp(-beta * dE))
        sub[ok] = proposal[r0::2, c0::2][ok]
        accepted += int(ok.sum())
    return accepted


def run(s, beta, nsweeps, history):
    accepted = 0
    for t in range(nsweeps):
        for colour in (0, 1):
            proposal = np.random.randint(0, Q, size=s.shape).astype(np.int8)
            u = np.random.random(s.shape)
            accepted += sweep_colour(s, colour, beta, proposal, u)
        history[t, 0] = energy(s) / s.size
        history[t, 1] = magnetisation(s)
    return accepted / (nsweeps * s.size)


def seeded_run(beta, nsweeps):
    np.random.seed(11)
    s = np.random.randint(0, Q, size=(L, L)).astype(np.int8)
    history = np.zeros((nsweeps, 2))
    rate = run(s, beta, nsweeps, history)
    return s, history, rate


def checks_sweep():
    rng = np.random.default_rng(3)
    s = rng.integers(0, Q, (8, 8)).astype(np.int8)
    return s, 1, 0.7, rng.integers(0, Q, (8, 8)).astype(np.int8), rng.random((8, 8))


CHECKS = {
    "seeded_run": lambda: (0.9, 4),
    "sweep_colour": checks_sweep,
    "energy": lambda: (np.random.default_rng(1).integers(0, Q, (6, 6)).astype(np.int8),),
    "magnetisation": lambda: (np.array([[0, 1], [1, 1]], dtype=np.int8),),
}

if __name__ == "__main__":
    spins = np.random.randint(0, Q, size=(L, L)).astype(np.int8)
    for beta in BETAS:
        hist = np.zeros((6, 2))
        rate = run(spins, beta, 6, hist)
        print("beta", beta, "acceptance", repr(rate))
        for t in range(0, 6, 2):
            print(t, repr(hist[t, 0]), repr(hist[t, 1]))
    print(np.bincount(spins.ravel(), minlength=Q), spins.dtype)
    s, h, r = seeded_run(0.9, 3)
    print(repr(r), repr(h[-1, 0]), s.sum())
