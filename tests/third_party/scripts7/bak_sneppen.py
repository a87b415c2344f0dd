"""Bak-Sneppen evolution on a ring: the least fit species found by `np.argmin`, it and its two
neighbours replaced with fresh draws through a fancy index with a negative entry
(`f[[i - 1, i, (i + 1) % n]] = rng.random(3)`: index -1 wraps to the last species), the running
minimum's maximum (the gap) tracked, avalanche durations counted while the minimum stays below a
threshold, and the fitness histogram by `np.histogram`.
"""
import numpy as np


def evolve(f, nsteps, rng, threshold):
    n = f.shape[0]
    gap = 0.0
    gaps = np.zeros(nsteps)
    where = np.zeros(nsteps, dtype=np.int64)
    aval = []
    run = 0
    for t in range(nsteps):
        i = np.argmin(f)
        fmin = f[i]
        gap = max(gap, fmin)
        gaps[t] = gap
        where[t] = i
        f[[i - 1, i, (i + 1) % n]] = rng.random(3)
        if fmin < threshold:
            run += 1
        elif run:
            aval.append(run)
            run = 0
    return f, gaps, where, aval


def run(n, nsteps, seed):
    rng = np.random.default_rng(seed)
    f = rng.random(n)
    f, gaps, where, aval = evolve(f, nsteps, rng, 0.3)
    hist, _ = np.histogram(f, bins=5, range=(0.0, 1.0))
    return f, gaps[-1], where, len(aval), hist


CHECKS = {"run": lambda: (30, 150, 6), "evolve": lambda: (np.linspace(0.9, 0.1, 8), 20, np.random.default_rng(0), 0.5)}

if __name__ == "__main__":
    f, gap, where, naval, hist = run(40, 400, 6)
    print(repr(gap), naval, hist.tolist(), where[:12].tolist(), repr(f.min()))
