"""Hand JAX ports of the loop kernels with moving slices (benchmarks/loop_kernels.py,
benchmarks/loop_perf.py; issue 18), as a JAX user would write them: lax.fori_loop over the
original's loop variable, windows as lax.dynamic_slice, triangular ranges as masks with
jnp.where, written arrays carried and
updated with dynamic_update_slice (in place in XLA). Same algorithm and operation
order per element as the original; each returns the value the original returns (LU: A)."""

import jax.numpy as jnp
from jax import lax


def _put(a, v, *at):
    """a with the element (or column, for a `None` in at) at `at` set to v, in place: a
    dynamic_update_slice (`.at[i].set` with traced indices is a scatter, which XLA:CPU turns
    into a select over the whole array)."""
    shape = [a.shape[k] if e is None else 1 for k, e in enumerate(at)]
    return lax.dynamic_update_slice(a, jnp.reshape(v, shape).astype(a.dtype), [0 if e is None else e for e in at])


def windowed_sum(x, w):
    n = x.shape[0]
    xp = jnp.concatenate([x, jnp.zeros(w, x.dtype)])  # the short windows at the end sum zeros

    def body(i, out):
        return _put(out, lax.dynamic_slice(xp, (i,), (w,)).sum(), i)

    return lax.fori_loop(0, n, body, jnp.zeros(n, x.dtype))


def lu(A):
    n = A.shape[0]
    r = jnp.arange(n)[:, None]
    c = jnp.arange(n)[None, :]

    def body(k, A):
        A = jnp.where((r > k) & (c == k), A / A[k, k], A)
        return A - jnp.where((r > k) & (c > k), jnp.outer(A[:, k], A[k, :]), 0.0)

    return lax.fori_loop(0, n, body, A)


def cholesky(A):
    n = A.shape[0]
    idx = jnp.arange(n)

    def row(i, L):
        def col(j, L):
            s = jnp.where(idx < j, L[i] * L[j], 0.0).sum()
            v = jnp.where(i == j, jnp.sqrt(A[i, i] - s), (A[i, j] - s) / L[j, j])
            return _put(L, v, i, j)
        return lax.fori_loop(0, i + 1, col, L)

    return lax.fori_loop(0, n, row, jnp.zeros_like(A))


def correlation(d):
    M = d.shape[1]

    def row(i, c):
        def col(j, c):
            v = (d[:, i] * d[:, j]).sum()
            return _put(_put(c, v, i, j), v, j, i)
        return lax.fori_loop(i + 1, M, col, c)

    return lax.fori_loop(0, M - 1, row, jnp.eye(M, dtype=d.dtype))


def conv2d(x, w):
    N, H, W = x.shape
    K = w.shape[0]

    def row(i, out):
        def col(j, out):
            win = lax.dynamic_slice(x, (0, i, j), (N, K, K))
            return _put(out, (win * w).sum(axis=(1, 2)), None, i, j)
        return lax.fori_loop(0, W - K + 1, col, out)

    return lax.fori_loop(0, H - K + 1, row, jnp.zeros((N, H - K + 1, W - K + 1), x.dtype))


def element_swap(u, tmp):
    n, m = u.shape

    def row(i, c):
        def col(j, c):
            u, tmp = c
            return _put(u, tmp[i, j], i, j), _put(tmp, 0.0, i, j)
        return lax.fori_loop(0, m, col, c)

    return lax.fori_loop(0, n, row, (u, tmp))


def element_swap_stacked(u, tmp):
    """element_swap with u and tmp as one (2, n, m) buffer: the same stores, and XLA:CPU does
    them in place (two buffers, one read into the other's update: it copies tmp per iteration)."""
    n, m = u.shape

    def step(i, j, b):
        v = lax.dynamic_slice(b, (1, i, j), (1, 1, 1))
        b = lax.dynamic_update_slice(b, v, (0, i, j))
        return lax.dynamic_update_slice(b, jnp.zeros((1, 1, 1), b.dtype), (1, i, j))

    b = lax.fori_loop(0, n, lambda i, b: lax.fori_loop(0, m, lambda j, b: step(i, j, b), b), jnp.stack([u, tmp]))
    return b[0], b[1]


def durbin(r):
    """y of the Levinson-Durbin recursion: the reversed slices `r[k - 1::-1]`, `y[k - 1::-1]`
    as windows of the reversed arrays padded with zeros, `[:k]` as a mask."""
    n = r.shape[0]
    t = jnp.arange(n)
    rrev = jnp.concatenate([r[::-1], jnp.zeros(n, r.dtype)])

    def body(k, c):
        y, alpha, beta = c
        beta = (1 - alpha * alpha) * beta
        s = jnp.where(t < k, lax.dynamic_slice(rrev, (n - k,), (n,)) * y, 0.0).sum()
        alpha = -(r[k] + s) / beta
        yrev = lax.dynamic_slice(jnp.concatenate([y[::-1], jnp.zeros(n, y.dtype)]), (n - k,), (n,))
        y = jnp.where(t < k, y + alpha * yrev, y)
        return _put(y, alpha, k), alpha, beta

    y0 = _put(jnp.zeros(n, r.dtype), -r[0], 0)
    return lax.fori_loop(1, n, body, (y0, -r[0], jnp.ones((), r.dtype)))[0]


def forward_subst(L, b):
    n = b.shape[0]
    t = jnp.arange(n)

    def body(i, x):
        s = jnp.where(t < i, L[i] * x, 0.0).sum()
        return _put(x, (b[i] - s) / L[i, i], i)

    return lax.fori_loop(0, n, body, jnp.zeros(n, b.dtype))


def gram_schmidt(A):
    """(Q, R) of modified Gram-Schmidt: a column loop, an inner loop over the columns after it,
    columns read and written with dynamic_slice / dynamic_update_slice."""
    m, n = A.shape

    def col(A, j):
        return lax.dynamic_slice(A, (0, j), (m, 1))[:, 0]

    def outer(k, c):
        A, Q, R = c
        ak = col(A, k)
        rkk = jnp.sqrt((ak * ak).sum())
        qk = ak / rkk
        Q, R = _put(Q, qk, None, k), _put(R, rkk, k, k)

        def inner(j, c):
            A, R = c
            rkj = qk @ col(A, j)
            return _put(A, col(A, j) - qk * rkj, None, j), _put(R, rkj, k, j)

        A, R = lax.fori_loop(k + 1, n, inner, (A, R))
        return A, Q, R

    _, Q, R = lax.fori_loop(0, n, outer, (A, jnp.zeros((m, n), A.dtype), jnp.zeros((n, n), A.dtype)))
    return Q, R
