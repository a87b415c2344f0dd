"""Monte Carlo estimates with the global generator re-seeded inside the loop (one batch per
seed, as reproducibility-minded scripts do), a progress counter and a running estimate printed
every few batches, and a rejection sampler whose accepted count drives a `while` loop.
"""
import time

import numpy as np

BATCHES = 6
BATCH = 200


def estimate_pi(batches, batch):
    hits = 0
    total = 0
    estimates = np.zeros(batches)
    start = time.time()
    for b in range(batches):
        np.random.seed(1000 + b)
        xy = np.random.rand(batch, 2)
        inside = (xy ** 2).sum(axis=1) <= 1.0
        hits = hits + inside.sum()
        total += batch
        estimates[b] = 4.0 * hits / total
        if b % 2 == 1:
            print("batch", b, repr(estimates[b]), f"{time.time() - start >= 0}")
    return estimates, hits


def rejection(n_target, seed):
    rng = np.random.default_rng(seed)
    samples = np.zeros(n_target)
    filled = 0
    tries = 0
    while filled < n_target:
        x = rng.uniform(-1.0, 1.0)
        y = rng.uniform(0.0, 1.0)
        tries += 1
        if y <= np.exp(-4.0 * x * x):
            samples[filled] = x
            filled += 1
    return samples, tries


def walk_seeded(n):
    np.random.seed(7)
    pos = np.zeros(n)
    for k in range(n):
        pos[k:] += np.random.standard_normal()
    return pos


CHECKS = {
    "estimate_pi": lambda: (BATCHES, BATCH),
    "rejection": lambda: (25, 11),
    "walk_seeded": lambda: (10,),
}

if __name__ == "__main__":
    est, hits = estimate_pi(BATCHES, BATCH)
    print(np.round(est, 12).tolist(), repr(hits), type(hits).__name__)
    s, tries = rejection(25, 11)
    print(repr(s.sum()), tries)
    print(repr(walk_seeded(10).sum()), repr(np.random.random()))
