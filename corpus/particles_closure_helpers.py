"""Particles in a periodic box: per-particle helpers defined inside the driver (`def compute(i)`
writes the captured force array, `def wrap(p)` folds positions back), velocity Verlet in time."""
import numpy as np

ENTRY = "simulate"


def simulate(pos, vel, nt, dt, box):
    n = pos.shape[0]
    force = np.zeros_like(pos)

    def compute(i):
        d = pos - pos[i]
        d -= box * np.round(d / box)
        r2 = (d ** 2).sum(axis=1) + 1.0
        force[i] = -(d / r2[:, None] ** 2).sum(axis=0)

    def wrap(p):
        p[:] = p - box * np.floor(p / box)

    energy = np.zeros(nt)
    for t in range(nt):
        for i in range(n):
            compute(i)
        vel += 0.5 * dt * force
        pos += dt * vel
        wrap(pos)
        for i in range(n):
            compute(i)
        vel += 0.5 * dt * force
        energy[t] = 0.5 * (vel ** 2).sum()
    return energy


def make_inputs(size="small"):
    n, nt = (5, 4) if size == "small" else (256, 200)
    rng = np.random.default_rng(1)
    return dict(pos=rng.uniform(0, 4.0, size=(n, 2)), vel=rng.normal(size=(n, 2)) * 0.1, nt=nt,
                dt=0.01, box=4.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energy = simulate(**inputs)
    print(f"last = {energy[-1]}")
