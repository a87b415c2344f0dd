"""Lennard-Jones particles in a periodic box: forces zeroed with `f.fill(0.0)` every step,
pair forces accumulated with `np.add.at` over an i<j pair list (built once with
`np.triu_indices`), minimum image by `np.rint`, positions wrapped with `x %= L`, a thermostat
that rescales `v *= factor`, and a progress line with elapsed time every few steps.
"""
import time

import numpy as np

NPART = 12
L = 4.0
DT = 0.004
STEPS = 25
RC = 2.5


def lattice(n, box):
    k = int(np.ceil(n ** (1 / 3)))
    g = (np.arange(k) + 0.5) * box / k
    pts = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
    return pts[:n].copy()


def forces(x, f, pairs):
    i, j = pairs
    d = x[i] - x[j]
    d -= L * np.rint(d / L)
    r2 = (d * d).sum(axis=1)
    inv6 = np.where(r2 < RC * RC, 1.0 / r2 ** 3, 0.0)
    mag = 24.0 * inv6 * (2.0 * inv6 - 1.0) / r2
    fij = mag[:, None] * d
    f.fill(0.0)
    np.add.at(f, i, fij)
    np.subtract.at(f, j, fij)
    return 2.0 * (inv6 * (inv6 - 1.0)).sum() * 2.0


def run(x, v, steps, target_t):
    pairs = np.triu_indices(x.shape[0], 1)
    f = np.zeros_like(x)
    epot = forces(x, f, pairs)
    start = time.time()
    log = []
    for s in range(steps):
        v += 0.5 * DT * f
        x += DT * v
        x %= L
        epot = forces(x, f, pairs)
        v += 0.5 * DT * f
        temp = (v * v).sum() / (3 * x.shape[0])
        if s % 5 == 4:
            v *= np.sqrt(target_t / temp)
            print(f"step {s:3d} T={temp:.10f} E={epot:.10f} t>{time.time() - start >= 0}")
        log.append(epot)
    return np.array(log)


def make_inputs(size="small"):
    rng = np.random.default_rng(9)
    return (lattice(NPART, L), rng.standard_normal((NPART, 3)) * 0.5, STEPS, 0.8)


CHECKS = {"run": make_inputs}

if __name__ == "__main__":
    x, v, steps, t = make_inputs()
    log = run(x, v, steps, t)
    print(repr(log[-1]), repr(x.sum()), repr(v.sum()))
