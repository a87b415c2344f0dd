"""Sparse matrix-vector products in CSR and COO formats, used inside a power
iteration for the dominant eigenvalue.

Domain: sparse linear algebra kernel from a network / Markov-chain code. The
CSR product expands indptr into a per-nonzero row index (np.add.at on an int
marker array: empty rows make indptr entries repeat) and reduces with
np.add.at. A COO copy of the same matrix, whose entries are split into
duplicate (row, col) pairs, is densified with a 2-D np.add.at. The original
code's buggy buffered version y[row] += ... is kept as a diagnostic.
"""
import numpy as np

ENTRY = "power_iteration"


def expand_rows(indptr, nnz):
    """Row index of every stored nonzero, via a marker array and cumsum."""
    marks = np.zeros(nnz + 1, dtype=np.int64)
    np.add.at(marks, indptr[1:-1], 1)      # repeated indptr values = empty rows
    rows = np.cumsum(marks[:nnz])
    return rows


def csr_matvec(data, indices, rows, x, y):
    """y = A @ x, written into y; returns y."""
    y.fill(0.0)
    np.add.at(y, rows, data * x[indices])
    return y


def coo_to_dense(coo_rows, coo_cols, coo_vals, dense):
    dense.fill(0.0)
    np.add.at(dense, (coo_rows, coo_cols), coo_vals)
    return dense


def power_iteration(data, indices, indptr, x, coo_rows, coo_cols, coo_vals, iters):
    """Normalised power iteration; x is overwritten with the final iterate.

    Returns (Rayleigh quotient as a 0-d array, |CSR - dense| mismatch,
    buffered-update error).
    """
    n = x.shape[0]
    nnz = data.shape[0]
    rows = expand_rows(indptr, nnz)
    y = np.zeros(n)
    x /= np.linalg.norm(x)
    for k in range(iters):
        csr_matvec(data, indices, rows, x, y)
        np.copyto(x, y)
        x /= np.linalg.norm(x)
    csr_matvec(data, indices, rows, x, y)
    rayleigh = np.zeros(())
    rayleigh += np.dot(x, y)
    dense = np.zeros((n, n))
    coo_to_dense(coo_rows, coo_cols, coo_vals, dense)
    mismatch = np.max(np.abs(dense @ x - y))
    y_buffered = np.zeros(n)
    y_buffered[rows] += data * x[indices]   # last write per row wins
    buffered_error = np.linalg.norm(y_buffered - y)
    return rayleigh, mismatch, buffered_error


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, density, iters = 8, 0.3, 6
    else:
        n, density, iters = 600, 0.02, 200
    A = np.where(rng.random((n, n)) < density, rng.random((n, n)), 0.0)
    A += A.T                            # symmetric, non-negative
    A[n // 2, :] = 0.0                  # isolated nodes: empty rows
    A[:, n // 2] = 0.0
    A[n - 1, :] = 0.0
    A[:, n - 1] = 0.0
    A[1, 1] += 1.0
    # CSR arrays
    row_counts = np.count_nonzero(A, axis=1)
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(row_counts)
    r, c = np.nonzero(A)
    indices = c.astype(np.int64)
    data = A[r, c]
    # COO with every entry split into two duplicate pieces, shuffled
    split = rng.uniform(0.2, 0.8, size=data.shape[0])
    coo_rows = np.concatenate([r, r])
    coo_cols = np.concatenate([c, c])
    coo_vals = np.concatenate([data * split, data * (1.0 - split)])
    perm = rng.permutation(coo_rows.shape[0])
    x = rng.random(n) + 0.1
    return dict(data=data, indices=indices, indptr=indptr, x=x,
                coo_rows=coo_rows[perm].astype(np.int64),
                coo_cols=coo_cols[perm].astype(np.int64),
                coo_vals=coo_vals[perm], iters=iters)


if __name__ == "__main__":
    inputs = make_inputs("large")
    lam, mismatch, buf_err = power_iteration(**inputs)
    print(f"dominant eigenvalue ~ {float(lam):.6f}")
    print(f"CSR vs dense error  = {mismatch:.3e}")
    print(f"buffered y error    = {buf_err:.6f}")
    print(f"x[0]                = {inputs['x'][0]:.6f}")
