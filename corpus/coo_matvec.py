"""Sparse matrix-vector products in coordinate (COO / triplet) format,
driving a conjugate-gradient solve of a 2-D Poisson problem.

Domain: sparse linear algebra as written before scipy.sparse was at hand.
The matrix is kept as (row, col, val) triplets exactly as an assembler
emits them, duplicates included (two contributions to one entry are summed
by the product, as the COO format specifies); y = A x is formed with
np.add.at, which accumulates every repeated row. A fixed number of CG
iterations updates x, r and p in place; the residual history is returned.
"""
import numpy as np

ENTRY = "cg_solve"


def coo_matvec(rows, cols, vals, x, y):
    """y = A x for A in COO format (duplicates summed); y is overwritten."""
    y[:] = 0.0
    np.add.at(y, rows, vals * x[cols])


def coo_rmatvec(rows, cols, vals, x, y):
    """y = A^T x."""
    y[:] = 0.0
    np.add.at(y, cols, vals * x[rows])


def cg_solve(rows, cols, vals, b, x, iters):
    """Conjugate gradients from the initial guess x (updated in place).
    Returns the residual norms and the symmetry defect |A^T r - A r|."""
    n = b.shape[0]
    r = np.empty(n)
    Ap = np.empty(n)
    coo_matvec(rows, cols, vals, x, Ap)
    r[:] = b - Ap
    p = r.copy()
    rr = np.dot(r, r)
    hist = np.zeros(iters)
    for k in range(iters):
        coo_matvec(rows, cols, vals, p, Ap)
        alpha = rr / np.dot(p, Ap)
        x += alpha * p
        r -= alpha * Ap
        rr_new = np.dot(r, r)
        p *= rr_new / rr
        p += r
        rr = rr_new
        hist[k] = np.sqrt(rr)
    ATr = np.empty(n)
    coo_rmatvec(rows, cols, vals, r, ATr)
    coo_matvec(rows, cols, vals, r, Ap)
    return hist, np.max(np.abs(ATr - Ap))


def laplacian_triplets(m):
    """5-point Laplacian on an m x m grid, each diagonal entry emitted as
    separate per-neighbour contributions (duplicates), as an edge-based
    assembler would."""
    rows, cols, vals = [], [], []
    idx = np.arange(m * m).reshape(m, m)
    for i in range(m):
        for j in range(m):
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rows.append(idx[i, j])
                cols.append(idx[i, j])
                vals.append(1.0)
                ii, jj = i + di, j + dj
                if 0 <= ii < m and 0 <= jj < m:
                    rows.append(idx[i, j])
                    cols.append(idx[ii, jj])
                    vals.append(-1.0)
    return np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), np.array(vals)


def make_inputs(size="small"):
    rng = np.random.default_rng(5)
    m, iters = (4, 6) if size == "small" else (120, 300)
    rows, cols, vals = laplacian_triplets(m)
    b = rng.random(m * m)
    return dict(rows=rows, cols=cols, vals=vals, b=b, x=np.zeros(m * m), iters=iters)


if __name__ == "__main__":
    inputs = make_inputs("large")
    hist, defect = cg_solve(**inputs)
    print(f"residual start = {hist[0]:.6e}")
    print(f"residual end   = {hist[-1]:.6e}")
    print(f"symmetry       = {defect:.3e}")
