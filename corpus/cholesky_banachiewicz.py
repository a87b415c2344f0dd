"""Cholesky factorisation (Cholesky-Banachiewicz, row by row) and solve.

Domain: covariance / stiffness matrices in legacy statistics and structural
codes. The lower factor L is filled row by row with scalar triple loops, the
diagonal handled by a branch on i == j. The factor is then used to solve a
symmetric positive-definite system and to form the log-determinant.
"""
import numpy as np

ENTRY = "factor_and_solve"

JITTER = 1.0e-10


def cholesky(A, L):
    """Fill the lower-triangular L with A = L L^T."""
    n = A.shape[0]
    for i in range(n):
        for j in range(i + 1):
            s = 0.0
            for k in range(j):
                s += L[i, k] * L[j, k]
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]


def factor_and_solve(A, b, L, x):
    """Factor A into L (in place), solve A x = b into x; return log det A."""
    n = A.shape[0]
    for i in range(n):
        A[i, i] += JITTER
    cholesky(A, L)
    y = np.zeros(n)
    for i in range(n):
        s = 0.0
        for k in range(i):
            s += L[i, k] * y[k]
        y[i] = (b[i] - s) / L[i, i]
    for i in range(n - 1, -1, -1):
        s = 0.0
        for k in range(i + 1, n):
            s += L[k, i] * x[k]
        x[i] = (y[i] - s) / L[i, i]
    logdet = 0.0
    for i in range(n):
        logdet += 2.0 * np.log(L[i, i])
    return logdet


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n = 6
    else:
        n = 250
    M = rng.standard_normal((n, n))
    A = M @ M.T + n * np.eye(n)
    b = rng.standard_normal(n)
    return dict(A=A, b=b, L=np.zeros((n, n)), x=np.zeros(n))


if __name__ == "__main__":
    inputs = make_inputs("large")
    A0 = inputs["A"].copy()
    logdet = factor_and_solve(**inputs)
    L = inputs["L"]
    x = inputs["x"]
    print(f"logdet   = {logdet:.6f}")
    print(f"|LL^T-A| = {np.max(np.abs(L @ L.T - inputs['A'])):.3e}")
    print(f"residual = {np.max(np.abs(A0 @ x - inputs['b'])):.3e}")
    print(f"sum x    = {x.sum():.6f}")
