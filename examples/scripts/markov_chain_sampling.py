"""A Markov chain sampled by inverse-CDF draws: np.cumsum rows and np.searchsorted.

A row-stochastic transition matrix is built from a seeded Generator and normalised in place
(`P /= P.sum(axis=1, keepdims=True)`); its cumulative rows (np.cumsum, the last entry forced
to 1.0) turn uniforms into next states with np.searchsorted per step. Many independent walkers
advance together (a vector of states, one searchsorted per walker in a loop, and a vectorised
variant comparing uniforms with the cumulative rows); visit counts accumulate with np.add.at
and are compared with the stationary distribution from np.linalg.eig.
"""
import numpy as np

ENTRY = "sample"
NSTATES = 5


def transition_matrix(seed):
    rng = np.random.default_rng(seed)
    P = rng.random((NSTATES, NSTATES)) + 0.1
    P /= P.sum(axis=1, keepdims=True)
    return P


def stationary(P):
    w, V = np.linalg.eig(P.T)
    k = np.argmin(np.abs(w - 1.0))
    pi = np.real(V[:, k])
    return pi / pi.sum()


def sample(P, states, uniforms, visits):
    C = np.cumsum(P, axis=1)
    C[:, -1] = 1.0
    for t in range(uniforms.shape[0]):
        for w in range(states.shape[0]):
            states[w] = np.searchsorted(C[states[w]], uniforms[t, w], side="right")
        np.add.at(visits, states, 1)
    return visits / visits.sum()


def sample_vectorised(P, states, uniforms, visits):
    C = np.cumsum(P, axis=1)
    C[:, -1] = 1.0
    for t in range(uniforms.shape[0]):
        states[:] = np.sum(uniforms[t][:, None] >= C[states], axis=1)
        visits += np.bincount(states, minlength=NSTATES)
    return visits / visits.sum()


def make_inputs(size="small"):
    steps, walkers = (10, 6) if size == "small" else (400, 50)
    rng = np.random.default_rng(8)
    return dict(P=transition_matrix(1), states=np.zeros(walkers, dtype=np.int64),
                uniforms=rng.random((steps, walkers)), visits=np.zeros(NSTATES, dtype=np.int64))


CHECKS = {"sample": lambda: make_inputs("small"),
          "sample_vectorised": lambda: make_inputs("small")}

if __name__ == "__main__":
    for fn in (sample, sample_vectorised):
        inputs = make_inputs("large")
        freq = fn(**inputs)
        print(repr(freq.tolist()), repr(inputs["states"].tolist()[:10]))
    print(repr(float(np.abs(freq - stationary(inputs["P"])).max()) < 0.05))
