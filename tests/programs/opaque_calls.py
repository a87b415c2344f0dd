"""Calls of objects np2ref cannot see into (tests/host/test_opaque_calls.py): a module-level source of
noise and samplers passed in, called in loops and at the top level."""

import numpy as np


class Source:
    """A noise source with its own generator and a call counter: its state is what NumPy's
    program leaves it in, call by call."""

    def __init__(self, seed, grow=0):
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.grow = grow

    def draw(self, n, scale=1.0):
        self.calls += 1
        return scale * self.rng.standard_normal(n + self.grow * self.calls)

    def level(self):
        self.calls += 1
        return float(self.rng.random())


SOURCE = Source(3)


def diffuse(u, steps):
    out = np.zeros_like(u)
    for t in range(steps):
        out[1:-1] += 0.1 * (u[2:] - u[:-2]) + SOURCE.draw(u.shape[0] - 2, scale=0.5)
    return out


def noisy_level(u):
    return u * SOURCE.level()


def take(n):
    return SOURCE.draw(n) * 2.0


def take_scaled(u, n):
    return SOURCE.draw(n) * u[0]


def level_after_read(u, k):
    v = u[k]  # an index checked when the program runs: no call of the object after it fails
    return v * SOURCE.level()


def accumulate(sampler, n, k):
    total = np.zeros(n)
    for i in range(k):
        total += sampler.next_batch(n)
    return total


def hand_over(u, sampler):
    return sampler.next_batch(u * 2)


def writes_and_calls(u):
    u[0] = SOURCE.level()
    return u
