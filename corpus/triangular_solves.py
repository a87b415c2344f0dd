"""Forward and back substitution with scalar loops.

Domain: the triangular kernels of a legacy direct solver. A lower-triangular
system L y = b is solved by forward substitution and an upper-triangular
system U x = y by back substitution, each with an inner accumulation loop,
for several right-hand sides stored as columns of B (overwritten with the
solutions, as in LAPACK's xTRSM).
"""
import numpy as np

ENTRY = "solve_many"


def forward_subst(L, b, x):
    n = L.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]


def back_subst(U, b, x):
    n = U.shape[0]
    for i in range(n - 1, -1, -1):
        s = 0.0
        for j in range(i + 1, n):
            s += U[i, j] * x[j]
        x[i] = (b[i] - s) / U[i, i]


def solve_many(L, U, B):
    """Overwrite each column of B with U^{-1} L^{-1} B[:, c]; return norms."""
    n, m = B.shape
    y = np.empty(n)
    x = np.empty(n)
    norms = np.zeros(m)
    for c in range(m):
        forward_subst(L, B[:, c], y)
        back_subst(U, y, x)
        B[:, c] = x
        acc = 0.0
        for i in range(n):
            acc += x[i] * x[i]
        norms[c] = np.sqrt(acc)
    return norms


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, m = 6, 2
    else:
        n, m = 400, 8
    L = np.tril(rng.standard_normal((n, n))) + n * np.eye(n)
    U = np.triu(rng.standard_normal((n, n))) + n * np.eye(n)
    B = rng.standard_normal((n, m))
    return dict(L=L, U=U, B=B)


if __name__ == "__main__":
    inputs = make_inputs("large")
    B0 = inputs["B"].copy()
    norms = solve_many(**inputs)
    X = inputs["B"]
    print(f"residual = {np.max(np.abs(inputs['L'] @ (inputs['U'] @ X) - B0)):.3e}")
    print(f"norm[0]  = {norms[0]:.6f}")
    print(f"sum X    = {X.sum():.6f}")
