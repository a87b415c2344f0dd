"""Eigenvalue estimates by power iteration and Rayleigh quotients with a tolerance test that
returns early, `lam_old = lam` carried between trips, a shifted inverse iteration with
`np.linalg.solve`, and deflation that writes into the caller's matrix (`A -= lam * np.outer(v, v)`).
Iteration counts are Python ints; eigenvalues NumPy float64 scalars.
"""
import numpy as np

N = 6
TOL = 1e-10


def make_matrix(n, seed):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def power(A, tol, maxit):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam_old = 0.0
    for it in range(maxit):
        w = A @ v
        lam = v @ w
        v = w / np.linalg.norm(w)
        if abs(lam - lam_old) < tol * abs(lam):
            return lam, v, it
        lam_old = lam
    return lam_old, v, maxit


def inverse_shift(A, shift, iters):
    n = A.shape[0]
    M = A - shift * np.eye(n)
    x = np.arange(1.0, n + 1.0)
    for k in range(iters):
        x = np.linalg.solve(M, x)
        x /= np.abs(x).max()
    return x @ A @ x / (x @ x)


def deflate(A, k):
    lams = np.zeros(k)
    counts = []
    for j in range(k):
        lam, v, it = power(A, TOL, 500)
        lams[j] = lam
        counts.append(it)
        A -= lam * np.outer(v, v)
    return lams, counts


CHECKS = {
    "power": lambda: (make_matrix(N, 1), TOL, 500),
    "power#few": lambda: (make_matrix(N, 1), TOL, 3),
    "inverse_shift": lambda: (make_matrix(N, 2), 3.0, 12),
    "deflate": lambda: (make_matrix(N, 3), 3),
}

if __name__ == "__main__":
    lam, v, it = power(make_matrix(N, 1), TOL, 500)
    print(repr(lam), type(lam).__name__, it, type(it).__name__)
    print(repr(inverse_shift(make_matrix(N, 2), 3.0, 12)))
    A = make_matrix(N, 3)
    lams, counts = deflate(A, 3)
    print(np.round(lams, 9).tolist(), counts, repr(np.trace(A)))
