"""Functions that make their own random generator (issue 42): made on the host each run."""
import numpy as np


def noisy_relax(u, n):
    rng = np.random.default_rng(1234)
    for i in range(n):
        u += rng.normal(0.0, 0.1, size=u.shape)
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
    return u


def pcg_seeded(u, seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    u[0] += rng.uniform()
    return u.sum() + rng.standard_normal()


def legacy_state(u):
    rs = np.random.RandomState(7)
    u[1:] = rs.rand(u.size - 1)
    return u


def seed_from_data(u):
    rng = np.random.default_rng(int(u[0]))
    u[1:] += rng.integers(0, 10, size=u.size - 1)
    return u


def kick(u, rng):
    u *= 1.0 + rng.uniform(-0.01, 0.01, size=u.shape)


def drives_helper(u, n):
    rng = np.random.default_rng(99)
    for _ in range(n):
        kick(u, rng)
    return u.mean()


def seeded_per_step(u):
    for i in range(u.size):
        rng = np.random.default_rng(i)
        u[i] = rng.random()
    return u


def fresh_entropy(u):
    rng = np.random.default_rng()
    u += rng.random(u.shape)
    return u


def returns_generator(u):
    rng = np.random.default_rng(3)
    u += rng.random(u.shape)
    return rng


def reads_bit_generator(u):
    rng = np.random.default_rng(3)
    u += rng.random(u.shape)
    return rng.bit_generator.state["state"]["state"]
