"""Sparse matrix-vector products and Gauss-Seidel sweeps on CSR storage.

Domain: the inner kernels of a legacy unstructured-mesh solver. The matrix
(a 2-D five-point Laplacian with a random diagonal shift, stored as CSR
arrays data / indices / indptr) is swept row by row; the bounds of each
row's inner loop are read from indptr, and the diagonal entry is found with
a branch on the column index. Residual norms are recorded per sweep.
"""
# np2ref: verify vmap  (grad: loop bounds read from indptr; JAX cannot reverse-differentiate them)
import numpy as np

ENTRY = "smooth"


def csr_matvec(data, indices, indptr, x, y):
    n = indptr.shape[0] - 1
    for i in range(n):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * x[indices[k]]
        y[i] = s


def gs_sweep(data, indices, indptr, b, x):
    n = indptr.shape[0] - 1
    for i in range(n):
        s = b[i]
        diag = 1.0
        for k in range(indptr[i], indptr[i + 1]):
            if indices[k] == i:
                diag = data[k]
            else:
                s -= data[k] * x[indices[k]]
        x[i] = s / diag


def smooth(data, indices, indptr, b, x, sweeps):
    """Run Gauss-Seidel sweeps on x in place; return residual 2-norms."""
    n = b.shape[0]
    r = np.zeros(n)
    res = np.zeros(sweeps + 1)
    csr_matvec(data, indices, indptr, x, r)
    r -= b
    res[0] = np.sqrt(np.dot(r, r))
    for s in range(sweeps):
        gs_sweep(data, indices, indptr, b, x)
        csr_matvec(data, indices, indptr, x, r)
        np.subtract(r, b, out=r)
        res[s + 1] = np.sqrt(np.dot(r, r))
    return res


def build_laplacian(m, shift):
    n = m * m
    data = []
    indices = []
    indptr = [0]
    for i in range(m):
        for j in range(m):
            row = i * m + j
            if i > 0:
                data.append(-1.0)
                indices.append(row - m)
            if j > 0:
                data.append(-1.0)
                indices.append(row - 1)
            data.append(4.0 + shift[row])
            indices.append(row)
            if j < m - 1:
                data.append(-1.0)
                indices.append(row + 1)
            if i < m - 1:
                data.append(-1.0)
                indices.append(row + m)
            indptr.append(len(data))
    return (np.array(data), np.array(indices, dtype=np.int64),
            np.array(indptr, dtype=np.int64), n)


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        m, sweeps = 2, 4
    else:
        m, sweeps = 80, 50
    shift = 0.1 * rng.random(m * m)
    data, indices, indptr, n = build_laplacian(m, shift)
    b = rng.standard_normal(n)
    return dict(data=data, indices=indices, indptr=indptr, b=b, x=np.zeros(n),
                sweeps=sweeps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    res = smooth(**inputs)
    print(f"residual start = {res[0]:.6f}")
    print(f"residual end   = {res[-1]:.6f}")
    print(f"ratio          = {res[-1] / res[0]:.6e}")
    print(f"sum x          = {inputs['x'].sum():.6f}")
