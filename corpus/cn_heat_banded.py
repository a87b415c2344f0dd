"""Crank-Nicolson heat equation with SciPy's banded solver, the way tutorial code writes it:
the (1, 1)-banded matrix is built once, each step's right-hand side and solve sit in a nested
`step` function closing over the grid constants, the time step comes from math.* on the
parameters, and an assert checks the solution stays bounded."""
import math

import numpy as np
import scipy.linalg  # np2ref: requires scipy

ENTRY = "solve"
# np2ref: verify vmap, grad  (grad: the solve's own rule, dx = A^-1 (db - dA x), on LAPACK gtsv's bits)


def solve(u, nt, kappa, length):
    n = u.shape[0]
    dx = length / (n + 1)
    dt = 0.5 * dx * math.sqrt(dx) / kappa
    r = kappa * dt / dx ** 2
    ab = np.zeros((3, n))
    ab[0, 1:] = -0.5 * r
    ab[1, :] = 1.0 + r
    ab[2, :-1] = -0.5 * r
    decay = math.exp(-kappa * (math.pi / length) ** 2 * dt)
    energy = np.zeros(nt)
    peak = np.zeros(nt)

    def step(v):
        rhs = (1.0 - r) * v
        rhs[1:] += 0.5 * r * v[:-1]
        rhs[:-1] += 0.5 * r * v[1:]
        v[:] = scipy.linalg.solve_banded((1, 1), ab, rhs)

    for k in range(nt):
        step(u)
        assert np.abs(u).max() < 1e6, "the implicit step blew up"
        energy[k] = dx * (u ** 2).sum()
        peak[k] = max(abs(u.max()), abs(u.min())) * decay
    return energy, peak


def make_inputs(size="small"):
    n, nt = (12, 5) if size == "small" else (20000, 400)
    x = np.linspace(0.0, 1.0, n + 2)[1:-1]
    return dict(u=np.sin(np.pi * x) + 0.2 * np.sin(7 * np.pi * x), nt=nt, kappa=0.8, length=1.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energy, peak = solve(**inputs)
    print(f"energy = {energy[-1]:.10f}")
    print(f"peak   = {peak[-1]:.10f}")
