"""Loops whose slices move with the loop variable (tests/loops/test_loop_slices.py): windows of a
static width, triangular slices, slices read from data (CSR rows)."""

import numpy as np

def win_sum(x, w):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = x[i:i + w].sum()
    return out

def win_kernel(x, k):
    n = x.shape[0]
    out = np.zeros(n - 2)
    for i in range(n - 2):
        out[i] = (x[i:i + 3] * k).sum()
    return out

def stencil_neg(u):
    n = u.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = u[i - 1:i + 2].sum() + u[i - 3:].sum()
    return out

def win_store(x, y):
    n = x.shape[0]
    for i in range(0, n, 3):
        y[i:i + 3] = x[i:i + 3] * 2.0
        y[i + 1:i + 3] += 1.0
    return y

def cholesky(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = L[i, :j] @ L[j, :j]
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L

def trisolve(L, U, b):
    n = b.shape[0]
    y = np.zeros(n)
    x = np.zeros(n)
    for i in range(n):
        y[i] = (b[i] - L[i, :i] @ y[:i]) / L[i, i]
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - np.dot(U[i, i + 1:], x[i + 1:])) / U[i, i]
    return x

def correlation(d):
    M = d.shape[1]
    c = np.eye(M)
    for i in range(M - 1):
        for j in range(i + 1, M):
            c[i, j] = (d[:, i] * d[:, j]).sum()
            c[j, i] = c[i, j]
    return c

def csr(indptr, indices, data, v):
    m = indptr.shape[0] - 1
    y = np.zeros(m)
    for i in range(m):
        y[i] = data[indptr[i]:indptr[i + 1]] @ v[indices[indptr[i]:indptr[i + 1]]]
    return y

def row_tail(x):
    n = x.shape[0]
    c = np.zeros((n, n))
    for i in range(n):
        c[i, i + 1:] = x[i + 1:] * 2.0
        c[:i, i] -= x[:i]
    return c

def lu(A):
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    return A

def mismatched(x):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = (x[i:] * x[:i]).sum()
    return out

def ragged_max(x):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = np.max(x[i:i + 3])
    return out


def ragged_sorted_first(x):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = np.sort(x[i:i + 3])[0]
    return out


def pair_energy(pos, rc):
    """A pair loop over the rows after i (an MD energy): `d` is a slice of run-time length, its
    row sums, a comparison and np.where of it reduced again (npr_slice_sum of names bound to it)."""
    n = pos.shape[0]
    energy = 0.0
    for i in range(n - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        energy += np.sum(np.where(r2 < rc * rc, 1.0 / r2, 0.0))
    return energy


def pair_ufuncs(pos):
    """A pair loop with NumPy's elementwise functions of the moving slice's distances (the
    minimum image, a Coulomb sum, a Gaussian kernel) and the pairs pushed apart in place."""
    e = 0.0
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        d = d - 3.0 * np.round(d / 3.0)  # the minimum image in a periodic box
        r = np.sqrt((d ** 2).sum(axis=1))
        e += np.sum(1.0 / r) + np.sum(np.exp(-r * r)) + np.log(np.maximum(r, 0.5)).sum()
        pos[i + 1:] += 0.01 * d
    return e


def pair_einsum(pos, w):
    """Row-wise squared distances by np.einsum over a moving slice; a total, a weighted sum."""
    e = 0.0
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.einsum('ij,ij->i', d, d)
        e += np.sum(np.exp(-r2)) + np.einsum('ij,ij->', d, d) + np.sum(np.einsum('ij,j->i', d, w))
    return e


def pair_masked(pos, rc):
    """Boolean-mask reads of a pair loop's moving slice (rt/masks.py over NprMasked): a selection
    name (`inv6 = (1.0 / r2[inside]) ** 3`), an inline one, a method's, counts and sizes."""
    e = 0.0
    count = 0
    rc2 = rc * rc
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        inside = r2 < rc2
        inv6 = (1.0 / r2[inside]) ** 3
        e += np.sum(4.0 * (inv6 * inv6 - inv6)) + np.sum(1.0 / r2[r2 < rc2]) + r2[inside].sum()
        e += np.sum(d[inside], axis=0)[1] + (np.sqrt(r2[inside]).mean() if np.any(inside) else 0.0)
        count += np.count_nonzero(inside) + len(r2[inside]) + d[inside].size + inside.all()
    return e, count


def pair_masked_extremes(pos, rc):
    """max and min of a moving slice's selection: NumPy's ValueError when it is empty."""
    e = 0.0
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        inside = r2 < rc * rc
        e += r2[inside].max() - np.min(r2[inside])
    return e


def pair_masked_starts(pos, q):
    """A mask from a slice that starts elsewhere (`q[:n - 1 - i]`, at 0) selecting from one that
    starts at i + 1: paired by position, as NumPy pairs them."""
    n = pos.shape[0]
    e = 0.0
    for i in range(n - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        keep = q[:n - 1 - i] > 0
        v = r2[keep]
        e += np.sum(q[i + 1:][keep] / r2[keep]) + np.sum(v * v) + len(v)
    return e


def pair_masked_store(pos, rc):
    """Pair forces stored under the mask into the moving slice (`f[i + 1:][inside] -= ...`): a
    view with bounds known only at run time, written, which runs as a Python loop (exact)."""
    f = np.zeros_like(pos)
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        inside = r2 < rc * rc
        fv = d / r2[:, None] ** 2
        f[i] += np.sum(fv[inside], axis=0)
        f[i + 1:][inside] -= fv[inside]
    return f


def pair_masked_forces(pos, rc):
    """Pair forces within a cutoff, summed over the selected rows (`axis=0`) of an expression of
    masked reads of the moving slice: the forces on particle i."""
    f = np.zeros_like(pos)
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        inside = r2 < rc * rc
        f[i] += np.sum(d[inside] / r2[inside][:, None] ** 4, axis=0)
        if np.any(inside):
            f[i] -= np.max(d[inside] * 0.0 + r2[inside][:, None], axis=0)
    return f
