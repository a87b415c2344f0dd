"""Turing patterns of the Schnakenberg reaction-diffusion model in float32, in the pattern of
pattern-formation notebooks ported from JAX: the initial fields made at module level with
jax.numpy in float32 (a perturbation by jax.random) and handed to NumPy code that copies them
with `np.array(u0)`, np.float32 constants beside Python float time steps, the five-point
Laplacian with np.roll and zero-flux edges written through views (`lap[0] = ...` by reflected
rows), explicit Euler updates in place (`u += dt * (...)`), the reaction terms in a helper
writing into work arrays handed in, the parameters as a list `[a, b]`, the pattern's contrast
and the share of cells above the mean (np.count_nonzero) printed every few steps, and a
float64 mean of the float32 field at the end. (The pattern grows from a 1% perturbation: the
last bits of XLA's float32 products, contracted into FMAs, grow with it, 4e-6 relative after 100
steps; the script prints four decimals.)
"""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

N = 24
DU = np.float32(1.0)
DV = np.float32(40.0)
GAMMA = np.float32(20.0)
PARAMS = [0.1, 0.9]

key = jax.random.PRNGKey(11)
a0, b0 = PARAMS
U0 = jnp.full((N, N), a0 + b0, dtype=jnp.float32) + 0.01 * jax.random.normal(key, (N, N), dtype=jnp.float32)
V0 = jnp.full((N, N), b0 / (a0 + b0) ** 2, dtype=jnp.float32)


def laplacian(f, h2):
    lap = (np.roll(f, 1, 0) + np.roll(f, -1, 0) + np.roll(f, 1, 1) + np.roll(f, -1, 1) - 4 * f) / h2
    # zero flux: the ghost row equals the row inside
    lap[0] = (f[1] - f[0]) * 2 / h2 + (np.roll(f[0], 1) + np.roll(f[0], -1) - 2 * f[0]) / h2
    lap[-1] = (f[-2] - f[-1]) * 2 / h2 + (np.roll(f[-1], 1) + np.roll(f[-1], -1) - 2 * f[-1]) / h2
    return lap


def reactions(u, v, params, fu, fv):
    a, b = params
    uuv = u * u * v
    fu[...] = GAMMA * (a - u + uuv)
    fv[...] = GAMMA * (b - uuv)


def simulate(u0, v0, params, steps, dt, h=1.0, every=100):
    u = np.array(u0)
    v = np.array(v0)
    fu = np.empty_like(u)
    fv = np.empty_like(v)
    h2 = np.float32(h * h)
    for n in range(1, steps + 1):
        reactions(u, v, params, fu, fv)
        lu = laplacian(u, h2)
        lv = laplacian(v, h2)
        u += dt * (DU * lu + fu)
        v += dt * (DV * lv + fv)
        if n % every == 0:
            above = np.count_nonzero(u > u.mean())
            print("step", n, "contrast", "%.4f" % (u.max() - u.min()), "above", above, u.dtype)
    return u, v


def stats(u):
    return u.astype(np.float64).mean(), u.dtype.name, np.float32(u.max()) - np.float32(u.min())


CHECKS = {
    "simulate": lambda: (U0, V0, PARAMS, 60, 0.002, 1.0, 20),
    "simulate#numpy": lambda: (np.asarray(U0), np.asarray(V0), (0.1, 0.9), 30, np.float32(0.002), 1.0, 10),
    "laplacian": lambda: (np.asarray(U0), np.float32(1.0)),
    "reactions": lambda: (np.asarray(U0), np.asarray(V0), PARAMS, np.zeros((N, N), np.float32), np.zeros((N, N), np.float32)),
    "stats": lambda: (np.asarray(U0),),
}

if __name__ == "__main__":
    u, v = simulate(U0, V0, PARAMS, 400, 0.002)
    mean, name, spread = stats(u)
    print("mean", "%.4f" % mean, name, "spread", "%.3f" % spread)
    print("inputs still jax", type(U0).__name__ != "ndarray", U0.dtype)
    print(np.round(u[N // 2, ::4], 4))
