"""A sparse 2-D Poisson matrix assembled as COO triplets with duplicate entries (each edge adds
its part to both ends), converted to CSR by a stable argsort on row * n + col, duplicates summed
by a loop that compares with the previous key, int32 column indices and an int64 row pointer from
np.cumsum of np.bincount (unused slots counted in a spare bin, the caller slicing to the count);
then Gauss-Seidel, SOR and symmetric Gauss-Seidel sweeps element by
element over `indptr[i]:indptr[i + 1]` (the diagonal found in the row), a CSR mat-vec for the
residual, `break` on the relative residual, the residual printed every few sweeps.
"""
import numpy as np

NX = 5
N = NX * NX


def poisson_coo(nx):
    rows, cols, vals = [], [], []
    for i in range(nx):
        for j in range(nx):
            k = i * nx + j
            rows.append(k); cols.append(k); vals.append(0.5)
            for di, dj in ((1, 0), (0, 1)):
                ii, jj = i + di, j + dj
                if ii < nx and jj < nx:
                    m = ii * nx + jj
                    rows += [k, m, k, m]
                    cols += [m, k, k, m]
                    vals += [-1.0, -1.0, 1.0, 1.0]
            rows.append(k); cols.append(k); vals.append(3.5 - (i in (0, nx - 1)) * 0.0)
    return np.array(rows), np.array(cols), np.array(vals)


def coo_to_csr(rows, cols, vals, n):
    key = rows * n + cols
    order = np.argsort(key, kind="stable")
    key = key[order]
    vals = vals[order]
    out_cols = np.zeros(key.size, dtype=np.int32)
    out_vals = np.zeros(key.size)
    row_of = np.full(key.size, n, dtype=np.int64)  # unused slots count in a spare bin
    nnz = 0
    for k in range(key.size):
        if k > 0 and key[k] == key[k - 1]:
            out_vals[nnz - 1] += vals[k]
        else:
            out_cols[nnz] = key[k] % n
            row_of[nnz] = key[k] // n
            out_vals[nnz] = vals[k]
            nnz += 1
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(np.bincount(row_of, minlength=n + 1)[:n])
    return indptr, out_cols, out_vals, nnz


def csr_matvec(indptr, cols, vals, x, out):
    for i in range(out.shape[0]):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += vals[k] * x[cols[k]]
        out[i] = s
    return out


def sweep(indptr, cols, vals, b, x, omega, rows):
    for i in rows:
        diag = 0.0
        s = b[i]
        for k in range(indptr[i], indptr[i + 1]):
            j = cols[k]
            if j == i:
                diag = vals[k]
            else:
                s -= vals[k] * x[j]
        x[i] = (1.0 - omega) * x[i] + omega * s / diag


def solve(indptr, cols, vals, b, x, omega, maxit, symmetric):
    n = b.shape[0]
    r = np.empty(n)
    bnorm = np.linalg.norm(b)
    history = np.zeros(maxit)
    its = maxit
    for it in range(maxit):
        sweep(indptr, cols, vals, b, x, omega, range(n))
        if symmetric:
            sweep(indptr, cols, vals, b, x, omega, range(n - 1, -1, -1))
        csr_matvec(indptr, cols, vals, x, r)
        r -= b
        history[it] = np.linalg.norm(r) / bnorm
        if it % 5 == 0:
            print("it", it, "rel", repr(float(history[it])))
        if history[it] < 1e-8:
            its = it + 1
            break
    return its, history


ROWS, COLS, VALS = poisson_coo(NX)
INDPTR, CIDX, CVALS, NNZ = coo_to_csr(ROWS, COLS, VALS, N)
CIDX, CVALS = CIDX[:NNZ], CVALS[:NNZ]
B = np.sin(np.arange(N) * 0.7) + 1.0

CHECKS = {
    "coo_to_csr": lambda: (ROWS.copy(), COLS.copy(), VALS.copy(), N),
    "csr_matvec": lambda: (INDPTR.copy(), CIDX.copy(), CVALS.copy(), B.copy(), np.zeros(N)),
    "solve": lambda: (INDPTR.copy(), CIDX.copy(), CVALS.copy(), B.copy(), np.zeros(N), 1.0, 30, False),
    "solve#sor": lambda: (INDPTR.copy(), CIDX.copy(), CVALS.copy(), B.copy(), np.zeros(N), 1.5, 30, False),
    "solve#ssor": lambda: (INDPTR.copy(), CIDX.copy(), CVALS.copy(), B.copy(), np.zeros(N), 1.2, 20, True),
}

if __name__ == "__main__":
    print("nnz", CVALS.size, "of", VALS.size, "triplets", INDPTR[:6].tolist())
    dense = np.zeros((N, N))
    np.add.at(dense, (ROWS, COLS), VALS)
    x_ref = np.linalg.solve(dense, B)
    for omega, symmetric in ((1.0, False), (1.5, False), (1.2, True)):
        x = np.zeros(N)
        its, history = solve(INDPTR, CIDX, CVALS, B, x, omega, 60, symmetric)
        print("omega", omega, "symmetric", symmetric, "its", its, "err", np.abs(x - x_ref).max() < 1e-6)
