"""Direct-sum gravity with Plummer softening and kick-drift-kick leapfrog: accelerations by a
double loop that writes `acc[i] += ...` and `acc[j] -= ...` row views, an energy function with
`np.triu_indices`, the relative energy error logged every N steps into a list, the centre of mass
removed once in place (`pos -= com`), float32 masses mixed with float64 positions.
"""
import numpy as np

N = 12
EPS = 0.05
DT = 0.01


def accelerations(pos, mass, acc):
    acc[:] = 0.0
    for i in range(pos.shape[0]):
        for j in range(i + 1, pos.shape[0]):
            d = pos[j] - pos[i]
            r2 = d @ d + EPS * EPS
            inv = r2 ** -1.5
            acc[i] += mass[j] * inv * d
            acc[j] -= mass[i] * inv * d
    return acc


def energy(pos, vel, mass):
    ke = 0.5 * np.sum(mass[:, None] * vel ** 2)
    i, j = np.triu_indices(pos.shape[0], k=1)
    r = np.sqrt(np.sum((pos[i] - pos[j]) ** 2, axis=1) + EPS * EPS)
    return ke - np.sum(mass[i] * mass[j] / r)


def run(pos, vel, mass, nsteps, every):
    com = (mass[:, None] * pos).sum(axis=0) / mass.sum()
    pos -= com
    acc = accelerations(pos, mass, np.zeros_like(pos))
    e0 = energy(pos, vel, mass)
    log = []
    for n in range(1, nsteps + 1):
        vel += 0.5 * DT * acc
        pos += DT * vel
        accelerations(pos, mass, acc)
        vel += 0.5 * DT * acc
        if n % every == 0:
            e = energy(pos, vel, mass)
            log.append(abs((e - e0) / e0))
    return pos, vel, e0, log


def make_inputs():
    rng = np.random.default_rng(7)
    # masses in quarters: float32 sums exact in any order (XLA sums in another order than NumPy)
    return rng.normal(size=(N, 3)), 0.1 * rng.normal(size=(N, 3)), rng.integers(2, 7, N).astype(np.float32) * 0.25


CHECKS = {"run": lambda: (*make_inputs(), 20, 5), "energy": make_inputs,
          "accelerations": lambda: (make_inputs()[0], make_inputs()[2], np.ones((N, 3)))}

if __name__ == "__main__":
    pos, vel, mass = make_inputs()
    pos, vel, e0, log = run(pos, vel, mass, 40, 10)
    print(repr(e0), [f"{x:.3e}" for x in log], repr(pos.mean()), pos.dtype)
