"""A hidden Markov model in log space: the forward recursion with a hand-written logsumexp
(`mx = a.max(axis=0); mx + np.log(np.exp(a - mx).sum(axis=0))`), `-np.inf` entries for
forbidden transitions (log of zero, warnings silenced with `np.errstate`), Viterbi with int16
back-pointers and an in-place `np.argmax`, the path traced backwards into an int8 array, and
one Baum-Welch re-estimation of the emission matrix with `np.add.at`.
"""
import numpy as np


def logsumexp(a, axis=0):
    mx = a.max(axis=axis)
    return mx + np.log(np.exp(a - np.expand_dims(mx, axis)).sum(axis=axis))


def forward(logA, logB, logpi, obs):
    T, S = obs.size, logpi.size
    la = np.empty((T, S))
    la[0] = logpi + logB[:, obs[0]]
    for t in range(1, T):
        la[t] = logsumexp(la[t - 1][:, None] + logA, axis=0) + logB[:, obs[t]]
    return la, float(logsumexp(la[-1]))


def backward(logA, logB, obs):
    T, S = obs.size, logA.shape[0]
    lb = np.zeros((T, S))
    for t in range(T - 2, -1, -1):
        lb[t] = logsumexp(logA + (logB[:, obs[t + 1]] + lb[t + 1])[None, :], axis=1)
    return lb


def viterbi(logA, logB, logpi, obs):
    T, S = obs.size, logpi.size
    delta = logpi + logB[:, obs[0]]
    back = np.zeros((T, S), dtype=np.int16)
    for t in range(1, T):
        scores = delta[:, None] + logA
        back[t] = np.argmax(scores, axis=0)
        delta = scores.max(axis=0) + logB[:, obs[t]]
    path = np.zeros(T, dtype=np.int8)
    path[-1] = np.argmax(delta)
    for t in range(T - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path, float(delta.max())


def reestimate(logA, logB, logpi, obs):
    la, ll = forward(logA, logB, logpi, obs)
    lb = backward(logA, logB, obs)
    gamma = np.exp(la + lb - ll)
    counts = np.zeros((logB.shape[1], logB.shape[0]))
    np.add.at(counts, obs, gamma)
    B = counts.T / gamma.sum(axis=0)[:, None]
    return B, ll


def model():
    A = np.array([[0.8, 0.2, 0.0], [0.1, 0.7, 0.2], [0.3, 0.0, 0.7]])
    B = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
    with np.errstate(divide="ignore"):
        return np.log(A), np.log(B), np.log(np.array([0.5, 0.3, 0.2]))


def observations(T=30):
    return np.random.default_rng(6).integers(0, 3, T)


CHECKS = {
    "forward": lambda: (*model(), observations()),
    "viterbi": lambda: (*model(), observations()),
    "reestimate": lambda: (*model(), observations(20)),
}

if __name__ == "__main__":
    logA, logB, logpi = model()
    obs = observations()
    path, best = viterbi(logA, logB, logpi, obs)
    B, ll = reestimate(logA, logB, logpi, obs)
    print(path.tolist(), repr(best), repr(ll))
    print(np.round(B, 8).tolist())
