"""Hand ports of the grid programs (heat kernel, corpus heat2d, jacobi_poisson2d,
threshold_denoise, game_of_life)."""

import jax.numpy as jnp
from jax import lax

import numpy as np


def heat(u, c, steps):
    def step(_, u):
        return u.at[1:-1, 1:-1].set(u[1:-1, 1:-1] + c * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                                         + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]))
    return None, {"u": lax.fori_loop(0, steps, step, u)}


def heat2d(u, alpha, steps, t_top, t_left, bottom_profile, hot_mask, t_hot):
    T_AMBIENT, COOLING = 15.0, 1.0e-3
    ny, nx = u.shape

    def dirichlet(u):
        u = u.at[0, :].set(t_top).at[:, 0].set(t_left).at[-1, :].set(bottom_profile[::-1])
        return u.at[:, -1].set(u[:, -2])

    def step(k, carry):
        u, centre = carry
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]
        u = u.at[1:-1, 1:-1].add(alpha * lap)
        u = u.at[1:-1, 1:-1].set(u[1:-1, 1:-1] - COOLING * (u[1:-1, 1:-1] - T_AMBIENT))
        u = dirichlet(jnp.where(hot_mask, t_hot, u))
        return u, centre.at[k].set(u[ny // 2, nx // 2])

    u, centre = lax.fori_loop(0, steps, step, (dirichlet(u), jnp.zeros(steps)))
    return centre, {"u": u}


def jacobi(phi, background, src_idx, src_val, obstacle, h, omega, iters):
    h2 = h * h
    rhs = (background / 1.0).reshape(-1).at[src_idx].set(src_val).reshape(phi.shape)
    rhs = rhs.at[0, :].set(0.0).at[-1, :].set(0.0).at[:, 0].set(0.0).at[:, -1].set(0.0)
    phi = jnp.where(obstacle, 0.0, phi)

    def sweep(k, carry):
        cur, nxt, hist = carry
        new = 0.25 * (cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:] + cur[1:-1, :-2] + h2 * rhs[1:-1, 1:-1])
        new = new * omega + (1.0 - omega) * cur[1:-1, 1:-1]
        nxt = jnp.where(obstacle, 0.0, nxt.at[1:-1, 1:-1].set(new))
        cur, nxt = nxt, cur
        res = rhs[1:-1, 1:-1] - (4.0 * cur[1:-1, 1:-1] - cur[2:, 1:-1] - cur[:-2, 1:-1]
                                 - cur[1:-1, 2:] - cur[1:-1, :-2]) / h2
        res = jnp.where(obstacle, 0.0, jnp.zeros_like(cur).at[1:-1, 1:-1].set(res))
        return cur, nxt, hist.at[k].set(jnp.linalg.norm(res))

    cur, _, hist = lax.fori_loop(0, iters, sweep, (phi, phi, jnp.zeros(iters)))
    return hist, {"phi": cur}


def denoise(img, dead, scratch, flags, thr, outlier_thr, iters):
    SHRINK, LO, HI = 0.7, 0.0, 1.0

    def sweep(k, carry):
        img, _, flags, change = carry
        previous = img
        sm = (img + jnp.roll(img, 1, axis=0) + jnp.roll(img, -1, axis=0) + jnp.roll(img, 1, axis=1)
              + jnp.roll(img, -1, axis=1)) / 5.0
        img = jnp.where(dead, sm, img)
        resid = img - sm
        outlier = jnp.abs(resid) > outlier_thr
        flags = flags + outlier
        img = jnp.where(outlier, sm, img)
        small = jnp.abs(resid) < thr
        resid = jnp.where(small, 0.0, resid * SHRINK)
        img = jnp.clip(jnp.where(outlier, img, sm + resid), LO, HI)
        return img, sm, flags, change.at[k].set(jnp.mean(jnp.abs(img - previous)))

    img, scratch, flags, change = lax.fori_loop(0, iters, sweep, (img, scratch, flags, jnp.zeros(iters)))
    return change, {"img": img, "scratch": scratch, "flags": flags}


def life(board, age, seed_idx, steps):
    OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
    GLIDER = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int32)
    AGE_WRAP, BLOCK = 256, 4
    ny, nx = board.shape
    board = board.at[0:3, 0:3].set(GLIDER).at[0:3, 4:7].set(GLIDER[:, ::-1]).at[-3, ::3].set(1)
    board = board.reshape(-1).at[seed_idx].set(1).reshape(ny, nx)

    def generation(k, carry):
        cur, age, population = carry
        counts = jnp.zeros_like(cur)
        for off in OFFSETS:
            counts = counts + jnp.roll(cur, off, axis=(0, 1))
        alive = cur == 1
        born = (alive & ((counts == 2) | (counts == 3))) | (~alive & (counts == 3))
        cur = jnp.where(born, 1, 0).astype(cur.dtype)
        age = jnp.where(cur == 1, age + 1, 0) % AGE_WRAP
        return cur, age, population.at[k].set(jnp.sum(cur, dtype=jnp.int64))

    board, age, population = lax.fori_loop(0, steps, generation,
                                           (board, age, jnp.zeros(steps, jnp.int64)))
    rows, cols = np.meshgrid(np.arange(ny) // BLOCK, np.arange(nx) // BLOCK, indexing="ij")
    nbx = (nx + BLOCK - 1) // BLOCK
    density = jnp.zeros(((ny + BLOCK - 1) // BLOCK) * nbx, jnp.int64).at[(rows * nbx + cols).ravel()].add(
        board.ravel().astype(jnp.int64))
    return (population, density), {"board": board, "age": age}
