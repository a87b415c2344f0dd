"""Element loops that must stay sequential (issues 38 and 39): Cholesky, LU, Gauss-Seidel and
forward substitution, each as legacy NumPy writes it, in a row form (`A[i, :j] @ A[j, :j]`) and a
scalar form (a loop nest of element reads and writes). Used by benchmarks/seq_loops.py (the XLA
loop's cost per step), benchmarks/pallas_loops.py (the Pallas kernel) and tests/loops/test_pallas_loops.py.
`inputs(name, n, dtype)` makes well-conditioned arguments; `steps(name, n)` counts innermost steps."""

import numpy as np


def cholesky(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[j, :j]
            A[i, j] /= A[j, j]
        A[i, i] -= A[i, :i] @ A[i, :i]
        A[i, i] = np.sqrt(A[i, i])


def cholesky_scalar(A):
    n = A.shape[0]
    for j in range(n):
        for k in range(j):
            for i in range(j, n):
                A[i, j] -= A[i, k] * A[j, k]
        A[j, j] = np.sqrt(A[j, j])
        for i in range(j + 1, n):
            A[i, j] /= A[j, j]


def lu(A):
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])


def lu_scalar(A):
    n = A.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            A[i, k] /= A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= A[i, k] * A[k, j]


def gauss_seidel(u, f, h2, sweeps):
    n = u.shape[0]
    for sweep in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - h2 * f[i, j])


def trisolve(L, b, x):
    n = b.shape[0]
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]


def trisolve_scalar(L, b, x):
    n = b.shape[0]
    for i in range(n):
        s = b[i]
        for j in range(i):
            s -= L[i, j] * x[j]
        x[i] = s / L[i, i]


NAMES = ("cholesky", "cholesky_scalar", "lu", "lu_scalar", "gauss_seidel", "trisolve", "trisolve_scalar")
SCALAR = ("cholesky_scalar", "lu_scalar", "gauss_seidel", "trisolve_scalar")


def inputs(name, n, dtype=np.float64, rng=None):
    rng = rng or np.random.default_rng(0)
    if name.startswith(("cholesky", "lu")):
        m = rng.random((n, n))
        return ((m @ m.T + n * np.eye(n)).astype(dtype),)
    if name == "gauss_seidel":
        return rng.random((n, n)).astype(dtype), rng.random((n, n)).astype(dtype), dtype(1.0 / (n - 1) ** 2), 4
    low = np.tril(rng.random((n, n))) + n * np.eye(n)
    return low.astype(dtype), rng.random(n).astype(dtype), np.zeros(n, dtype)


def steps(name, n):
    """Innermost iterations (the dependence chain the loop walks)."""
    return {"cholesky": n * (n - 1) // 2 + n, "cholesky_scalar": n * (n - 1) * (n + 1) // 6 + n * (n + 1) // 2,
            "lu": n, "lu_scalar": (n - 1) * n * (2 * n - 1) // 6 + n * (n - 1) // 2,
            "gauss_seidel": 4 * (n - 2) ** 2, "trisolve": n, "trisolve_scalar": n * (n + 1) // 2}[name]
