"""Programs for tests/host/test_host_calls.py: random draws and calls np2ref cannot see into."""

import numpy as np

RNG = np.random.default_rng(3)


class Source:
    """A module-level helper object that draws: its method must never run while tracing."""

    def draw(self, shape):
        return np.random.random(shape)


SOURCE = Source()


def global_draws(u):
    u += np.random.random(u.shape)
    return u.sum()


def generator_draws(u, rng):
    u += rng.normal(0.0, 1.0, u.shape)
    k = rng.integers(0, u.shape[0], size=3)
    u[k] += 1.0
    return u


def module_generator(u):
    u += RNG.standard_normal(u.shape[0])
    return u


def walk(x, n, rng):
    for t in range(n):
        x += rng.standard_normal(x.shape)
        if x.sum() > 0:
            x *= 0.5
    return x.sum()


def traced_parameters(u, rng):
    return rng.normal(u, 1.0), rng.choice(u, size=2, replace=False)


def drawn_loss(x, rng):
    y = x * 2.0
    y += rng.random(x.shape)
    return (y ** 2).sum()


def differentiated_mean(x, rng):
    return rng.normal(x, 1.0).sum()


def object_method(u):
    x = SOURCE.draw(u.shape)
    u += x
    return u.sum()


def passed_in(u, f):
    u += f(u)


def seeded(u):
    np.random.seed(0)
    u += np.random.random(u.shape)


def aliased_generator(u, rng):
    g = rng
    u += g.random(u.shape)


def caller_of_object_method(u):
    return object_method(u) * 2.0


def noisy_sum(u, s):
    u += s * np.random.random(u.shape)
    return u.sum()
