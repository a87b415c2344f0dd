"""Baum-Welch EM for a discrete hidden Markov model (the Rabiner tutorial pattern of many
bioinformatics course scripts, CpG islands): scaled forward and backward passes written row by
row into preallocated alpha and beta (`alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]`,
`alpha[t] /= c[t]`), the log-likelihood from the scales, the expected transitions accumulated
in place by an outer product per step, emissions by `np.add.at` over the symbols, the model
re-estimated into the caller's arrays (`A[...] = xi / xi.sum(axis=1, keepdims=True)`), EM until
the likelihood gains less than a tolerance (`break`), int8 observations, a posterior decoding.
"""
import numpy as np

N_STATES, N_SYMBOLS = 2, 4


def sample(A, B, pi, T, rng):
    states = np.zeros(T, dtype=np.int64)
    obs = np.zeros(T, dtype=np.int8)
    s = rng.choice(N_STATES, p=pi)
    for t in range(T):
        states[t] = s
        obs[t] = rng.choice(N_SYMBOLS, p=B[s])
        s = rng.choice(N_STATES, p=A[s])
    return states, obs


def forward(A, B, pi, obs, alpha, c):
    T = obs.size
    alpha[0] = pi * B[:, obs[0]]
    c[0] = alpha[0].sum()
    alpha[0] /= c[0]
    for t in range(1, T):
        alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]
        c[t] = alpha[t].sum()
        alpha[t] /= c[t]
    return np.log(c).sum()


def backward(A, B, obs, c, beta):
    T = obs.size
    beta[T - 1] = 1.0
    for t in range(T - 2, -1, -1):
        beta[t] = A @ (B[:, obs[t + 1]] * beta[t + 1])
        beta[t] /= c[t + 1]


def em_step(A, B, pi, obs, alpha, beta, c):
    loglik = forward(A, B, pi, obs, alpha, c)
    backward(A, B, obs, c, beta)
    gamma = alpha * beta
    gamma /= gamma.sum(axis=1, keepdims=True)
    xi = np.zeros((N_STATES, N_STATES))
    for t in range(obs.size - 1):
        m = np.outer(alpha[t], B[:, obs[t + 1]] * beta[t + 1]) * A
        xi += m / m.sum()
    emit = np.zeros((N_STATES, N_SYMBOLS))
    np.add.at(emit.T, obs.astype(np.int64), gamma)
    pi[:] = gamma[0]
    A[...] = xi / xi.sum(axis=1, keepdims=True)
    B[...] = emit / emit.sum(axis=1, keepdims=True)
    return loglik


def baum_welch(A, B, pi, obs, max_iter=50, tol=1e-6):
    T = obs.size
    alpha = np.zeros((T, N_STATES))
    beta = np.zeros((T, N_STATES))
    c = np.zeros(T)
    old = -np.inf
    it = 0
    for it in range(max_iter):
        loglik = em_step(A, B, pi, obs, alpha, beta, c)
        if it % 5 == 0:
            print("iter", it, "loglik", round(loglik, 8))
        if loglik - old < tol:
            break
        old = loglik
    return old, it


def posterior_decode(A, B, pi, obs):
    T = obs.size
    alpha = np.empty((T, N_STATES))
    beta = np.empty((T, N_STATES))
    c = np.empty(T)
    forward(A, B, pi, obs, alpha, c)
    backward(A, B, obs, c, beta)
    return np.argmax(alpha * beta, axis=1).astype(np.int8)


TRUE_A = np.array([[0.9, 0.1], [0.2, 0.8]])
TRUE_B = np.array([[0.4, 0.1, 0.1, 0.4], [0.1, 0.4, 0.4, 0.1]])
TRUE_PI = np.array([0.5, 0.5])


def start():
    return (np.array([[0.7, 0.3], [0.4, 0.6]]), np.array([[0.3, 0.2, 0.2, 0.3], [0.2, 0.3, 0.3, 0.2]]),
            np.array([0.6, 0.4]))


CHECKS = {
    "baum_welch": lambda: (*start(), sample(TRUE_A, TRUE_B, TRUE_PI, 60, np.random.default_rng(5))[1], 12, 1e-4),
    "forward": lambda: (*start(), np.array([0, 3, 1, 2, 2, 0], dtype=np.int8), np.zeros((6, 2)), np.zeros(6)),
    "posterior_decode": lambda: (TRUE_A, TRUE_B, TRUE_PI, np.array([0, 3, 1, 2, 2, 1, 0], dtype=np.int8)),
}

if __name__ == "__main__":
    rng = np.random.default_rng(7)
    states, obs = sample(TRUE_A, TRUE_B, TRUE_PI, 200, rng)
    A, B, pi = start()
    loglik, iters = baum_welch(A, B, pi, obs, max_iter=40)
    print("loglik", round(loglik, 6), "iterations", iters)
    print("A", repr(np.round(A, 5)))
    print("B", repr(np.round(B, 5)))
    path = posterior_decode(A, B, pi, obs)
    agree = max((path == states).mean(), (path != states).mean())
    print("agreement", repr(round(float(agree), 6)), path.dtype)
