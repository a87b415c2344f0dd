"""A sparse matrix in CSR form built by hand (`indptr` from `np.cumsum(np.bincount(rows))`,
columns and data reordered by a stable `np.argsort`), a matrix-vector product looping over rows
with slices `indices[indptr[i]:indptr[i + 1]]`, the transpose product by `np.add.at`, power
iteration with a Rayleigh quotient and a `while` + `break` on the change, uint32 column indices
and float32 data, and the convergence printed.
"""
import numpy as np


def to_csr(rows, cols, vals, n):
    order = np.argsort(rows, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(np.bincount(rows, minlength=n))
    return indptr, cols[order].astype(np.uint32), vals[order].astype(np.float32)


def matvec(indptr, indices, data, x, out):
    for i in range(out.size):
        lo, hi = indptr[i], indptr[i + 1]
        out[i] = (data[lo:hi] * x[indices[lo:hi]]).sum()
    return out


def rmatvec(indptr, indices, data, x, out):
    out[:] = 0
    rows = np.repeat(np.arange(x.size), np.diff(indptr))
    np.add.at(out, indices, data * x[rows])
    return out


def power(indptr, indices, data, n, tol, maxit):
    x = np.ones(n) / np.sqrt(n)
    y = np.zeros(n)
    lam = 0.0
    it = 0
    while it < maxit:
        matvec(indptr, indices, data, x, y)
        lam_new = float(x @ y)
        x[:] = y / np.linalg.norm(y)
        it += 1
        if abs(lam_new - lam) < tol * abs(lam_new):
            lam = lam_new
            break
        lam = lam_new
        if it % 5 == 0:
            print("it", it, "lambda", f"{lam:.10f}")
    return lam, x, it


def laplacian_graph(n=12):
    rows, cols = [], []
    for i in range(n):
        for j in (i - 1, i + 1, (i + 5) % n):
            if 0 <= j < n and j != i:
                rows += [i, j]
                cols += [j, i]
    rows, cols = np.array(rows), np.array(cols)
    return rows, cols, np.ones(rows.size) + 0.1 * (rows % 3)


CHECKS = {
    "to_csr": lambda: (*laplacian_graph(), 12),
    "matvec": lambda: (*to_csr(*laplacian_graph(), 12), np.arange(12.0), np.zeros(12)),
    "rmatvec": lambda: (*to_csr(*laplacian_graph(), 12), np.arange(12.0), np.zeros(12)),
    "power": lambda: (*to_csr(*laplacian_graph(), 12), 12, 1e-10, 200),
}

if __name__ == "__main__":
    indptr, indices, data = to_csr(*laplacian_graph(), 12)
    lam, x, it = power(indptr, indices, data, 12, 1e-12, 500)
    print(repr(lam), it, indices.dtype, data.dtype, repr(np.abs(x).max()))
    print(rmatvec(indptr, indices, data, np.arange(12.0), np.zeros(12)).tolist())
