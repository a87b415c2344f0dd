"""Gaussian elimination with partial pivoting, swaps written every way scripts write them.

Rows are swapped by fancy indexing (`A[[k, p]] = A[[p, k]]`, exact), the right-hand side by a
tuple swap of elements (`b[k], b[p] = b[p], b[k]`, exact), a permutation vector by tuple swap,
and a second matrix by the naive view swap `B[k], B[p] = B[p], B[k]` (the row views alias, so
NumPy duplicates a row: kept as NumPy does it). Back substitution fills `x` from the end.
"""
import numpy as np

ENTRY = "solve"


def solve(A, b, B, perm):
    n = A.shape[0]
    for k in range(n - 1):
        p = k + int(np.argmax(np.abs(A[k:, k])))
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[k], b[p] = b[p], b[k]
            perm[k], perm[p] = perm[p], perm[k]
            B[k], B[p] = B[p], B[k]
        for i in range(k + 1, n):
            m = A[i, k] / A[k, k]
            A[i, k:] -= m * A[k, k:]
            b[i] -= m * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    print("pivot order", perm.tolist(), "residual-free", repr(float(x.sum())))
    return x


def make_inputs(size="small"):
    n = 4 if size == "small" else 30
    rng = np.random.default_rng(12)
    return dict(A=rng.standard_normal((n, n)), b=rng.standard_normal(n),
                B=np.arange(n * 3, dtype=float).reshape(n, 3), perm=np.arange(n))


if __name__ == "__main__":
    inputs = make_inputs("large")
    x = solve(**inputs)
    print(repr(x.sum()), inputs["perm"].tolist()[:8], repr(inputs["B"].sum()))
