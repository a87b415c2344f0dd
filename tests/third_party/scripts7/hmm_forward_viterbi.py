"""Hidden Markov model: the scaled forward algorithm (`alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]`,
`c[t] = alpha[t].sum(); alpha[t] /= c[t]`), the log-likelihood from the scales, the backward
pass with the same scales, posteriors, and Viterbi in log space with an int64 back-pointer
array filled by `argmax` and the path traced back in a reversed loop.
"""
import numpy as np


def forward(A, B, pi, obs):
    T, K = obs.shape[0], A.shape[0]
    alpha = np.zeros((T, K))
    c = np.zeros(T)
    alpha[0] = pi * B[:, obs[0]]
    c[0] = alpha[0].sum()
    alpha[0] /= c[0]
    for t in range(1, T):
        alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]
        c[t] = alpha[t].sum()
        alpha[t] /= c[t]
    return alpha, c, np.log(c).sum()


def backward(A, B, obs, c):
    T, K = obs.shape[0], A.shape[0]
    beta = np.ones((T, K))
    for t in range(T - 2, -1, -1):
        beta[t] = A @ (B[:, obs[t + 1]] * beta[t + 1])
        beta[t] /= c[t + 1]
    return beta


def viterbi(A, B, pi, obs):
    T, K = obs.shape[0], A.shape[0]
    logA, logB = np.log(A), np.log(B)
    delta = np.log(pi) + logB[:, obs[0]]
    back = np.zeros((T, K), dtype=np.int64)
    for t in range(1, T):
        scores = delta[:, None] + logA
        back[t] = scores.argmax(axis=0)
        delta = scores.max(axis=0) + logB[:, obs[t]]
    path = np.zeros(T, dtype=np.int64)
    path[-1] = delta.argmax()
    for t in range(T - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path, delta.max()


def posterior(A, B, pi, obs):
    alpha, c, ll = forward(A, B, pi, obs)
    beta = backward(A, B, obs, c)
    gamma = alpha * beta
    gamma /= gamma.sum(axis=1, keepdims=True)
    return gamma, ll


def model():
    A = np.array([[0.85, 0.1, 0.05], [0.1, 0.8, 0.1], [0.05, 0.15, 0.8]])
    B = np.array([[0.6, 0.3, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7]])
    pi = np.array([0.5, 0.3, 0.2])
    obs = np.random.default_rng(3).integers(0, 3, 40)
    return A, B, pi, obs


CHECKS = {"forward": model, "viterbi": model, "posterior": model}

if __name__ == "__main__":
    A, B, pi, obs = model()
    gamma, ll = posterior(A, B, pi, obs)
    path, best = viterbi(A, B, pi, obs)
    print(repr(ll), repr(best), path.tolist(), gamma.argmax(axis=1).tolist() == path.tolist())
