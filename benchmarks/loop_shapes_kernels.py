"""Loop kernels of the shapes issue 39 names, as legacy NumPy writes them, each with a hand port
in jax.numpy (`hand_<name>`): what an expert writes after vectorising by hand. Used by
benchmarks/loop_shapes.py (timing) and tests/loops/test_loop_vectorise.py (the NumPy originals)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def syrk(alpha, beta, C, A):
    n = C.shape[0]
    for i in range(n):
        for j in range(i + 1):
            C[i, j] *= beta
        for j in range(i + 1):
            C[i, j] += alpha * A[i, :] @ A[j, :]


def hand_syrk(alpha, beta, C, A):
    low = jnp.tril(jnp.ones(C.shape, bool))
    return jnp.where(low, C * beta + alpha * (A @ A.T), C)


def syr2k(alpha, beta, C, A, B):
    n = C.shape[0]
    for i in range(n):
        for j in range(i + 1):
            C[i, j] *= beta
        for j in range(i + 1):
            C[i, j] += A[j, :] @ (alpha * B[i, :]) + B[j, :] @ (alpha * A[i, :])


def hand_syr2k(alpha, beta, C, A, B):
    low = jnp.tril(jnp.ones(C.shape, bool))
    return jnp.where(low, C * beta + A @ (alpha * B).T + B @ (alpha * A).T, C)


def colstats(data):
    """Column means and standard deviations, one column per iteration, then a normalised copy."""
    n, m = data.shape
    mean = np.zeros(m)
    std = np.zeros(m)
    for j in range(m):
        mean[j] = data[:, j].sum() / n
    for j in range(m):
        std[j] = np.sqrt(((data[:, j] - mean[j]) ** 2).sum() / n)
    out = np.empty_like(data)
    for j in range(m):
        out[:, j] = (data[:, j] - mean[j]) / std[j]
    return mean, std, out


def hand_colstats(data):
    n = data.shape[0]
    mean = data.sum(axis=0) / n
    std = jnp.sqrt(((data - mean) ** 2).sum(axis=0) / n)
    return mean, std, (data - mean) / std


def covariance(data):
    n, m = data.shape
    mean = np.zeros(m)
    for j in range(m):
        mean[j] = data[:, j].sum() / n
    d = data - mean
    cov = np.zeros((m, m))
    for i in range(m):
        for j in range(i, m):
            cov[i, j] = (d[:, i] * d[:, j]).sum() / (n - 1)
            cov[j, i] = cov[i, j]
    return cov


def hand_covariance(data):
    d = data - data.mean(axis=0)
    return (d.T @ d) / (data.shape[0] - 1)


def trmm(alpha, A, B):
    m, n = B.shape
    for i in range(m):
        for j in range(n):
            B[i, j] += A[i + 1:, i] @ B[i + 1:, j]
        for j in range(n):
            B[i, j] = alpha * B[i, j]


def hand_trmm(alpha, A, B):
    return alpha * (B + jnp.tril(A, -1).T @ B)


def cholesky(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[j, :j]
            A[i, j] /= A[j, j]
        A[i, i] -= A[i, :i] @ A[i, :i]
        A[i, i] = np.sqrt(A[i, i])


def hand_cholesky(A):
    return jnp.where(jnp.tril(jnp.ones(A.shape, bool)), jnp.linalg.cholesky(A), A)  # NumPy's loop keeps A above


def lu(A):
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])


def hand_lu(A):
    n = A.shape[0]
    idx = jnp.arange(n)

    def step(k, a):
        col = jnp.where(idx > k, a[:, k] / a[k, k], a[:, k])
        a = a.at[:, k].set(col)
        low, right = jnp.where(idx > k, col, 0.0), jnp.where(idx > k, a[k], 0.0)
        return a - jnp.outer(low, right)
    return lax.fori_loop(0, n, step, A)


def grid(g, nx, ny):
    for x in range(nx):
        for y in range(ny):
            if x == 0 or y == 0 or x == nx - 1 or y == ny - 1:
                g[x, y] = 1.0
            else:
                g[x, y] = 0.5 * x + 0.25 * y + g[x, y]


def hand_grid(g, nx, ny):
    x, y = jnp.arange(nx)[:, None], jnp.arange(ny)[None, :]
    edge = (x == 0) | (y == 0) | (x == nx - 1) | (y == ny - 1)
    return g.at[:nx, :ny].set(jnp.where(edge, 1.0, 0.5 * x + 0.25 * y + g[:nx, :ny]))


def softmax(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        e = np.exp(x[i] - x[i].max())
        out[i] = e / e.sum()
    return out


def hand_softmax(x):
    e = jnp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def stencil(A, B, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1])
        for i in range(1, n - 1):
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1])


def hand_stencil(A, B, steps):
    def step(t, ab):
        a, b = ab
        b = b.at[1:-1].set(0.33333 * (a[:-2] + a[1:-1] + a[2:]))
        a = a.at[1:-1].set(0.33333 * (b[:-2] + b[1:-1] + b[2:]))
        return a, b
    return lax.fori_loop(0, steps, step, (A, B))


def _spd(rng, n):
    s = rng.standard_normal((n, n))
    return s @ s.T + n * np.eye(n)


def inputs(name, rng):
    """The NumPy arguments of kernel `name` at the benchmark's small size."""
    n, m = 48, 32
    if name == "syrk":
        return 1.5, 1.2, rng.standard_normal((n, n)), rng.standard_normal((n, m))
    if name == "syr2k":
        return 1.5, 1.2, rng.standard_normal((n, n)), rng.standard_normal((n, m)), rng.standard_normal((n, m))
    if name in ("colstats", "covariance"):
        return (rng.standard_normal((n, m)),)
    if name == "trmm":
        return 1.5, rng.standard_normal((n, n)), rng.standard_normal((n, m))
    if name in ("cholesky", "lu"):
        return (_spd(rng, n),)
    if name == "grid":
        return rng.standard_normal((120, 100)), 120, 100
    if name == "softmax":
        return (rng.standard_normal((64, 96)),)
    if name == "stencil":
        return rng.standard_normal(400), rng.standard_normal(400), 20
    raise KeyError(name)


NAMES = ("syrk", "syr2k", "colstats", "covariance", "trmm", "cholesky", "lu", "grid", "softmax", "stencil")
MUTATED = dict(syrk=(2,), syr2k=(2,), trmm=(2,), cholesky=(0,), lu=(0,), grid=(0,), stencil=(0, 1))


def hand(name):
    """The jitted hand port, returning what the kernel returns or (for a kernel that returns
    nothing) the arrays it mutates."""
    static = dict(grid=(1, 2), stencil=(2,)).get(name, ())
    return jax.jit(globals()["hand_" + name], static_argnums=static)
