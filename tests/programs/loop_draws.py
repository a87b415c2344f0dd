"""Loops that draw in every step (tests/loops/test_loop_draws.py): some have their draws made in advance
(rt/draws.py), some keep a host call per draw; every one must give NumPy's values and leave the
generators as NumPy leaves them."""

import numpy as np


def metropolis(x, n, rng):
    e = np.sum(x ** 2)
    acc = 0
    for i in range(n):
        prop = x + rng.normal(0.0, 0.1, size=x.shape)
        u = rng.random()
        en = np.sum(prop ** 2)
        if u < np.exp(e - en):
            x[...] = prop
            e = en
            acc += 1
    return acc


def ising(s, n, beta):
    L = s.shape[0]
    for t in range(n):
        ij = np.random.randint(0, L, size=2)
        u = np.random.random_sample()
        i, j = ij[0], ij[1]
        nb = s[(i + 1) % L, j] + s[(i - 1) % L, j] + s[i, (j + 1) % L] + s[i, (j - 1) % L]
        if u < np.exp(-beta * 2.0 * s[i, j] * nb):
            s[i, j] = -s[i, j]
    return s


def walk_made(x, n):
    rng = np.random.default_rng(1234)
    for k in range(1, 2 * n, 2):
        x[k % x.shape[0]] += rng.standard_normal()
    return x


def legacy_gauss(x, n, rs):
    for k in range(n):
        x += rs.standard_normal(3)
    return x


def shared_bits(x, n, g1, g2):
    for k in range(n):
        x[0] += g1.random()
        x[1] += g2.exponential(2.0)
    return x


def small_ints(x, n, rng, sigma):
    for k in range(n):
        x += rng.integers(0, 5, size=3, dtype=np.int8)
        x[0] += rng.normal(0.0, sigma)
    return x


def conditional_draw(x, n, rng):
    for k in range(n):
        if x[0] < 2.0:
            x[0] += rng.random()
        x[1] += rng.random()
    return x


def early_break(x, n, rng):
    for k in range(n):
        x[0] += rng.random()
        if x[0] > 2.0:
            break
    return x


def varying_size(x, n, rng):
    for k in range(n):
        m = k % 3 + 1
        x[:m] += rng.random(m)
    return x


def two_in_one(x, n, rng):
    for k in range(n):
        x[0] += rng.random() - rng.normal()
    return x


def kick(x, rng):
    x += rng.normal(size=x.shape)


def helper_draws(x, n, rng):
    for k in range(n):
        kick(x, rng)
        x[0] += rng.random()
    return x


def energy(x):
    return np.sum(x ** 2)


def pure_helper(x, n, rng):
    e = 0.0
    for k in range(n):
        x[:] += rng.uniform(-0.1, 0.1, size=x.shape)
        e += energy(x)
    return e
