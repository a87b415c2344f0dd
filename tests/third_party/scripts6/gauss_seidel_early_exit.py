"""Gauss-Seidel and SOR on a small dense system, element loops over rows with a running
residual kept as a Python float (`err = max(err, abs(new - x[i]))`), `x = x.copy()` before the
sweep in the Jacobi variant, a `while` with an iteration cap and a `break`, and an LU
factorisation in place with partial pivoting by row swaps (`A[[k, p]] = A[[p, k]]`).
"""
import numpy as np

N = 6


def system(seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((N, N)) + N * np.eye(N)
    return A, rng.standard_normal(N)


def gauss_seidel(A, b, x, omega, tol, maxit):
    it = 0
    while it < maxit:
        err = 0.0
        for i in range(A.shape[0]):
            s = b[i] - A[i, :i] @ x[:i] - A[i, i + 1:] @ x[i + 1:]
            new = (1 - omega) * x[i] + omega * s / A[i, i]
            err = max(err, abs(new - x[i]))
            x[i] = new
        it += 1
        if err < tol:
            break
    return it, err


def jacobi(A, b, x, sweeps):
    d = np.diag(A)
    for k in range(sweeps):
        x_old = x
        x = x.copy()
        for i in range(A.shape[0]):
            x[i] = (b[i] - A[i] @ x_old + d[i] * x_old[i]) / d[i]
    return x


def lu_inplace(A, perm):
    n = A.shape[0]
    for k in range(n - 1):
        p = k + np.argmax(np.abs(A[k:, k]))
        if p != k:
            A[[k, p]] = A[[p, k]]
            perm[[k, p]] = perm[[p, k]]
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    return A


CHECKS = {
    "gauss_seidel": lambda: system(1) + (np.zeros(N), 1.0, 1e-10, 200),
    "gauss_seidel#sor": lambda: system(2) + (np.zeros(N), 1.2, 1e-10, 200),
    "jacobi": lambda: system(3) + (np.zeros(N), 12),
    "lu_inplace": lambda: (system(4)[0], np.arange(N)),
}

if __name__ == "__main__":
    A, b = system(1)
    x = np.zeros(N)
    it, err = gauss_seidel(A, b, x, 1.0, 1e-10, 200)
    print(it, type(it).__name__, type(err).__name__, repr(float(np.abs(A @ x - b).max()) < 1e-8))
    xj = jacobi(*system(3), np.zeros(N), 12)
    print(np.round(xj, 10).tolist())
    A4, perm = system(4)[0], np.arange(N)
    lu_inplace(A4, perm)
    print(perm.tolist(), repr(np.round(A4, 10).sum()))
