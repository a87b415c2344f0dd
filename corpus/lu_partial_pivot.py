"""LU decomposition with partial pivoting (Doolittle, row-oriented) and solve.

Domain: dense linear solves as they appear in legacy circuit / structural
codes: the matrix is factored in place (L below the diagonal with an implied
unit diagonal, U on and above it), the row permutation is recorded in an
integer vector that is updated as rows are swapped, and the right-hand side
is solved with explicit forward and back substitution loops.
"""
import numpy as np

ENTRY = "solve"

SINGULAR_EPS = 1.0e-300


def lu_factor(A, perm):
    """Factor A in place as P A = L U; perm records the row order."""
    n = A.shape[0]
    for k in range(n - 1):
        # pick the pivot row: largest magnitude in column k at or below k
        p = k
        big = abs(A[k, k])
        for i in range(k + 1, n):
            if abs(A[i, k]) > big:
                big = abs(A[i, k])
                p = i
        if p != k:
            tmp = A[k].copy()
            A[k] = A[p]
            A[p] = tmp
            t = perm[k]
            perm[k] = perm[p]
            perm[p] = t
        for i in range(k + 1, n):
            A[i, k] = A[i, k] / A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= A[i, k] * A[k, j]


def lu_solve(A, perm, b, x, y):
    """Solve L U x = b[perm] using the packed factors in A."""
    n = A.shape[0]
    for i in range(n):
        s = b[perm[i]]
        for j in range(i):
            s -= A[i, j] * y[j]
        y[i] = s
    for i in range(n - 1, -1, -1):
        s = y[i]
        for j in range(i + 1, n):
            s -= A[i, j] * x[j]
        x[i] = s / A[i, i]
    return x


def solve(A, b, perm, x):
    """Factor A in place, solve for x in place; return (x, log|det A|, sign)."""
    n = A.shape[0]
    for i in range(n):
        perm[i] = i
    lu_factor(A, perm)
    y = np.zeros(n)
    lu_solve(A, perm, b, x, y)
    logdet = 0.0
    sign = 1.0
    for i in range(n):
        d = A[i, i]
        if d < 0.0:
            sign = -sign
        logdet += np.log(abs(d) + SINGULAR_EPS)
    # rows that ended up away from their original position
    swaps = 0
    for i in range(n):
        if perm[i] != i:
            swaps += 1
    return x, logdet, sign, swaps


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n = 5
    else:
        n = 300
    A = rng.standard_normal((n, n))
    A[0, 0] = 1.0e-3          # force a pivot swap in the first column
    b = rng.standard_normal(n)
    return dict(A=A, b=b, perm=np.zeros(n, dtype=np.int64), x=np.zeros(n))


if __name__ == "__main__":
    inputs = make_inputs("large")
    A0 = inputs["A"].copy()
    b0 = inputs["b"].copy()
    x, logdet, sign, swaps = solve(**inputs)
    print(f"residual = {np.max(np.abs(A0 @ x - b0)):.3e}")
    print(f"logdet   = {logdet:.6f}")
    print(f"sign     = {sign:.1f}")
    print(f"moved    = {swaps}")
    print(f"sum x    = {x.sum():.6f}")
