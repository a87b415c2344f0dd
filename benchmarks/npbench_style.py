"""Kernels in the style of the NPBench suite's NumPy versions (the third-party kernels issue 39
measured), written for np2ref's benchmarks, each with a hand port in jax.numpy, and their timing:

    python benchmarks/npbench_style.py [--calls N] [--only a,b] [--sums reorder]

Per kernel: NumPy (the original on copies), the jitted `np2ref.compile(fn).pure` and the jitted hand
port on device arrays, the fastest of N calls each (alternated in two halves, so a busy spell on a
shared CPU does not fall on one side only), np2ref/hand and np2ref/NumPy; then the geomean. Small
sizes, near NPBench's S preset. The kernels are the shapes the issue lists: triangular updates
(syrk, syr2k), symmetric fills (covariance, correlation), a triangular product (trmm), rank-1
updates and products without loops (gemver), elementwise (compute), LU with substitutions
(ludcmp), time loops of stencils (fdtd_2d, jacobi_1d, jacobi_2d), a Levinson recurrence (durbin),
row-wise softmax and a horizontal-diffusion stencil (hdiff). `--sums reorder` compiles with
np2ref.compile's opt-in (docs/semantics.md, "Reordered sums": syrk's and syr2k's k loops).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def syrk(alpha, beta, C, A):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]


def hand_syrk(alpha, beta, C, A):
    return jnp.where(jnp.tril(jnp.ones(C.shape, bool)), C * beta + alpha * (A @ A.T), C)


def syr2k(alpha, beta, C, A, B):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += A[:i + 1, k] * alpha * B[i, k] + B[:i + 1, k] * alpha * A[i, k]


def hand_syr2k(alpha, beta, C, A, B):
    return jnp.where(jnp.tril(jnp.ones(C.shape, bool)), C * beta + alpha * (A @ B.T + B @ A.T), C)


def covariance(M, float_n, data):
    mean = np.mean(data, axis=0)
    data -= mean
    cov = np.zeros((M, M), dtype=data.dtype)
    for i in range(M):
        cov[i:M, i] = cov[i, i:M] = data[:, i] @ data[:, i:M] / (float_n - 1.0)
    return cov


def hand_covariance(M, float_n, data):
    d = data - data.mean(axis=0)
    return d.T @ d / (float_n - 1.0), d


def correlation(M, float_n, data):
    mean = np.mean(data, axis=0)
    stddev = np.std(data, axis=0)
    stddev[stddev <= 0.1] = 1.0
    data -= mean
    data /= np.sqrt(float_n) * stddev
    corr = np.eye(M, dtype=data.dtype)
    for i in range(M - 1):
        corr[i + 1:M, i] = corr[i, i + 1:M] = data[:, i] @ data[:, i + 1:M]
    return corr


def hand_correlation(M, float_n, data):
    std = data.std(axis=0)
    d = (data - data.mean(axis=0)) / (jnp.sqrt(float_n) * jnp.where(std <= 0.1, 1.0, std))
    corr = d.T @ d
    return jnp.where(jnp.eye(M, dtype=bool), 1.0, corr), d


def trmm(alpha, A, B):
    for i in range(B.shape[0]):
        for j in range(B.shape[1]):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])
    B *= alpha


def hand_trmm(alpha, A, B):
    return alpha * (B + jnp.tril(A, -1).T @ B)


def gemver(alpha, beta, A, u1, v1, u2, v2, w, x, y, z):
    A += np.outer(u1, v1) + np.outer(u2, v2)
    x += beta * y @ A + z
    w += alpha * A @ x


def hand_gemver(alpha, beta, A, u1, v1, u2, v2, w, x, y, z):
    A = A + jnp.outer(u1, v1) + jnp.outer(u2, v2)
    x = x + beta * y @ A + z
    return A, x, w + alpha * A @ x


def compute(array_1, array_2, a, b, c):
    return np.clip(array_1, 2, 10) * a + array_2 * b + c


def hand_compute(array_1, array_2, a, b, c):
    return jnp.clip(array_1, 2, 10) * a + array_2 * b + c


def ludcmp(A, b):
    n = A.shape[0]
    x = np.zeros_like(b)
    y = np.zeros_like(b)
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, n):
            A[i, j] -= A[i, :i] @ A[:i, j]
    for i in range(n):
        y[i] = b[i] - A[i, :i] @ y[:i]
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x, y


def hand_ludcmp(A, b):
    n = A.shape[0]
    idx = jnp.arange(n)

    def row(i, A):
        def low(j, A):
            v = (A[i, j] - jnp.where(idx < j, A[i], 0.0) @ jnp.where(idx < j, A[:, j], 0.0)) / A[j, j]
            return A.at[i, j].set(v)
        A = lax.fori_loop(0, i, low, A)
        up = A[i] - jnp.where(idx < i, A[i], 0.0) @ jnp.where((idx < i)[:, None], A, 0.0)
        return A.at[i].set(jnp.where(idx >= i, up, A[i]))
    A = lax.fori_loop(0, n, row, A)
    y = lax.fori_loop(0, n, lambda i, y: y.at[i].set(b[i] - jnp.where(idx < i, A[i], 0.0) @ y), jnp.zeros_like(b))
    x = lax.fori_loop(0, n, lambda k, x: x.at[n - 1 - k].set(
        (y[n - 1 - k] - jnp.where(idx > n - 1 - k, A[n - 1 - k], 0.0) @ x) / A[n - 1 - k, n - 1 - k]), jnp.zeros_like(b))
    return (x, y), A


def fdtd_2d(TMAX, ex, ey, hz, _fict_):
    for t in range(TMAX):
        ey[0, :] = _fict_[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


def hand_fdtd_2d(TMAX, ex, ey, hz, _fict_):
    def step(t, s):
        ex, ey, hz = s
        ey = ey.at[0, :].set(_fict_[t])
        ey = ey.at[1:, :].add(-0.5 * (hz[1:, :] - hz[:-1, :]))
        ex = ex.at[:, 1:].add(-0.5 * (hz[:, 1:] - hz[:, :-1]))
        hz = hz.at[:-1, :-1].add(-0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1]))
        return ex, ey, hz
    return lax.fori_loop(0, TMAX, step, (ex, ey, hz))


def jacobi_1d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])


def hand_jacobi_1d(TSTEPS, A, B):
    def step(t, s):
        a, b = s
        b = b.at[1:-1].set(0.33333 * (a[:-2] + a[1:-1] + a[2:]))
        return a.at[1:-1].set(0.33333 * (b[:-2] + b[1:-1] + b[2:])), b
    return lax.fori_loop(1, TSTEPS, step, (A, B))


def jacobi_2d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


def hand_jacobi_2d(TSTEPS, A, B):
    def sweep(a):
        return 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1] + a[:-2, 1:-1])

    def step(t, s):
        a, b = s
        b = b.at[1:-1, 1:-1].set(sweep(a))
        return a.at[1:-1, 1:-1].set(sweep(b)), b
    return lax.fori_loop(1, TSTEPS, step, (A, B))


def durbin(r):
    y = np.empty_like(r)
    alpha = -r[0]
    beta = 1.0
    y[0] = -r[0]
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y


def hand_durbin(r):
    n = r.shape[0]
    idx = jnp.arange(n)

    def step(k, s):
        y, alpha, beta = s
        beta = beta * (1.0 - alpha * alpha)
        rr = jnp.roll(r[::-1], k - n)  # rr[t] = r[k - 1 - t] for t < k
        alpha = -(r[k] + jnp.where(idx < k, rr, 0.0) @ jnp.where(idx < k, y, 0.0)) / beta
        yy = jnp.roll(y[::-1], k - n)
        y = jnp.where(idx < k, y + alpha * yy, y).at[k].set(alpha)
        return y, alpha, beta
    y0 = jnp.zeros_like(r).at[0].set(-r[0])
    return lax.fori_loop(1, n, step, (y0, -r[0], 1.0))[0]


def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def hand_softmax(x):
    e = jnp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def hdiff(in_field, out_field, coeff):
    I, J, K = out_field.shape
    lap = 4.0 * in_field[1:I + 3, 1:J + 3, :] - (in_field[2:I + 4, 1:J + 3, :] + in_field[0:I + 2, 1:J + 3, :]
                                                  + in_field[1:I + 3, 2:J + 4, :] + in_field[1:I + 3, 0:J + 2, :])
    res = lap[1:, 1:J + 1, :] - lap[:-1, 1:J + 1, :]
    flx = np.where((res * (in_field[2:I + 3, 2:J + 2, :] - in_field[1:I + 2, 2:J + 2, :])) > 0, 0, res)
    res = lap[1:I + 1, 1:, :] - lap[1:I + 1, :-1, :]
    fly = np.where((res * (in_field[2:I + 2, 2:J + 3, :] - in_field[2:I + 2, 1:J + 2, :])) > 0, 0, res)
    out_field[:, :, :] = in_field[2:I + 2, 2:J + 2, :] - coeff * (flx[1:, :, :] - flx[:-1, :, :] + fly[:, 1:, :] - fly[:, :-1, :])


def hand_hdiff(in_field, out_field, coeff):
    I, J, K = out_field.shape
    f = in_field
    lap = 4.0 * f[1:I + 3, 1:J + 3] - (f[2:I + 4, 1:J + 3] + f[0:I + 2, 1:J + 3] + f[1:I + 3, 2:J + 4] + f[1:I + 3, 0:J + 2])
    res = lap[1:, 1:J + 1] - lap[:-1, 1:J + 1]
    flx = jnp.where((res * (f[2:I + 3, 2:J + 2] - f[1:I + 2, 2:J + 2])) > 0, 0, res)
    res = lap[1:I + 1, 1:] - lap[1:I + 1, :-1]
    fly = jnp.where((res * (f[2:I + 2, 2:J + 3] - f[2:I + 2, 1:J + 2])) > 0, 0, res)
    return f[2:I + 2, 2:J + 2] - coeff * (flx[1:] - flx[:-1] + fly[:, 1:] - fly[:, :-1])


def inputs(name, rng):
    """NumPy arguments near NPBench's S preset."""
    r = rng.standard_normal
    if name in ("syrk", "syr2k"):
        n, m = 50, 70
        return (1.5, 1.2, r((n, n)), r((n, m))) + ((r((n, m)),) if name == "syr2k" else ())
    if name in ("covariance", "correlation"):
        n, m = 100, 80
        return m, float(n), r((n, m))
    if name == "trmm":
        return 1.5, r((60, 60)), r((60, 80))
    if name == "gemver":
        n = 400
        return (1.5, 1.2, r((n, n))) + tuple(r(n) for _ in range(8))
    if name == "compute":
        return rng.integers(0, 12, (200, 200)), rng.integers(0, 12, (200, 200)), 4, 3, 9
    if name == "ludcmp":
        n = 60
        return r((n, n)) + n * np.eye(n), r(n)
    if name == "fdtd_2d":
        return 20, r((50, 60)), r((50, 60)), r((50, 60)), r(20)
    if name == "jacobi_1d":
        return 50, r(400), r(400)
    if name == "jacobi_2d":
        return 20, r((60, 60)), r((60, 60))
    if name == "durbin":
        return (r(200) * 0.1,)
    if name == "softmax":
        return (r((16, 4, 64, 64)),)
    if name == "hdiff":
        return r((36, 36, 16)), np.zeros((32, 32, 16)), r((32, 32, 16))
    raise KeyError(name)


NAMES = ("syrk", "syr2k", "covariance", "correlation", "trmm", "gemver", "compute", "ludcmp", "fdtd_2d",
         "jacobi_1d", "jacobi_2d", "durbin", "softmax", "hdiff")


def fastest(f, calls):
    best = math.inf
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(f())
        best = min(best, time.perf_counter() - t)
    return best


def measure(name, calls, sums="exact"):
    """(NumPy, np2ref, hand) fastest seconds of kernel `name`."""
    import np2ref
    fn = globals()[name]
    args = inputs(name, np.random.default_rng(0))
    static = tuple(k for k, x in enumerate(args) if isinstance(x, int))
    dev = [jax.device_put(x) if k not in static else x for k, x in enumerate(args)]
    ours = jax.jit(np2ref.compile(fn, sums=sums).pure, static_argnums=static)
    hand = jax.jit(globals()["hand_" + name], static_argnums=static)
    jax.block_until_ready(ours(*dev))
    jax.block_until_ready(hand(*dev))
    t_np = fastest(lambda: fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args]), max(3, calls // 10))
    t_ours, t_hand = math.inf, math.inf
    for _ in range(2):
        t_ours = min(t_ours, fastest(lambda: ours(*dev), calls // 2))
        t_hand = min(t_hand, fastest(lambda: hand(*dev), calls // 2))
    return t_np, t_ours, t_hand


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--only", default="")
    p.add_argument("--sums", default="exact", choices=("exact", "reorder"))
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)
    ratios = []
    print("| kernel | NumPy ms | np2ref ms | hand ms | np2ref / hand | np2ref / NumPy |\n|---|---|---|---|---|---|")
    for name in (a.only.split(",") if a.only else NAMES):
        t_np, t_ours, t_hand = measure(name, a.calls, a.sums)
        ratios.append(t_ours / t_hand)
        print(f"| {name} | {t_np * 1e3:.3f} | {t_ours * 1e3:.3f} | {t_hand * 1e3:.3f} | {t_ours / t_hand:.2f} | "
              f"{t_ours / t_np:.2f} |", flush=True)
    print(f"\ngeomean np2ref/hand: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
