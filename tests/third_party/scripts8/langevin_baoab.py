"""Underdamped Langevin dynamics of particles in a double-well potential with the BAOAB splitting
and a `np.random.default_rng` Generator passed in: `v += 0.5 * dt * f` (B), `x += 0.5 * dt * v`
(A), the Ornstein-Uhlenbeck kick `v *= c1; v += c2 * rng.standard_normal(v.shape)` (O), forces
into a preallocated array through `out=`, the kinetic temperature averaged in a Python float and
printed every N steps, and a histogram of positions at the end.
"""
import numpy as np


def force(x, out):
    np.multiply(x, x, out=out)
    out -= 1.0
    out *= -4.0 * x
    return out


def baoab(x, v, rng, dt, gamma, kT, nsteps, every):
    f = np.empty_like(x)
    force(x, f)
    c1 = np.exp(-gamma * dt)
    c2 = np.sqrt((1 - c1 * c1) * kT)
    temp_sum = 0.0
    for n in range(nsteps):
        v += 0.5 * dt * f
        x += 0.5 * dt * v
        v *= c1
        v += c2 * rng.standard_normal(v.shape)
        x += 0.5 * dt * v
        force(x, f)
        v += 0.5 * dt * f
        temp_sum += float((v * v).mean())
        if (n + 1) % every == 0:
            print(f"step {n + 1}: <T> = {temp_sum / (n + 1):.10f}")
    return x, v, temp_sum / nsteps


def run(seed, n, nsteps):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.5, 1.5, n)
    v = np.zeros(n)
    x, v, t_mean = baoab(x, v, rng, 0.05, 1.0, 0.5, nsteps, nsteps // 4)
    hist, _ = np.histogram(x, bins=8, range=(-2.0, 2.0))
    return x, v, t_mean, hist


CHECKS = {
    "run": lambda: (7, 64, 80),
    "baoab": lambda: (np.linspace(-1, 1, 16), np.zeros(16), np.random.default_rng(1), 0.05, 1.0, 0.5, 40, 10),
    "force": lambda: (np.linspace(-2, 2, 9), np.zeros(9)),
}

if __name__ == "__main__":
    x, v, t_mean, hist = run(7, 256, 400)
    print(repr(t_mean), hist.tolist(), repr(np.abs(x).mean()))
