"""Crank-Nicolson time stepping of 1-D diffusion with the Thomas algorithm.

Domain: implicit heat / species diffusion with spatially varying
diffusivity and homogeneous Dirichlet ends. Each step builds the tridiagonal
system in rows of a preallocated work array (names bound to row views) and
solves it with the classic Thomas algorithm: a forward elimination sweep that
overwrites the diagonal and right-hand side in place, followed by back
substitution over a descending Python range.
"""
import numpy as np

ENTRY = "simulate"


def thomas_solve(a, b, c, d, x):
    """Solve the tridiagonal system (sub a, diag b, super c) x = d.

    b and d are overwritten (as in Numerical Recipes); returns x.
    """
    n = d.shape[0]
    for i in range(1, n):
        m = a[i] / b[i - 1]
        b[i] -= m * c[i - 1]
        d[i] -= m * d[i - 1]
    x[n - 1] = d[n - 1] / b[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = (d[i] - c[i] * x[i + 1]) / b[i]
    return x


def build_system(u, r, work):
    """Fill rows of work with (a, b, c, d) for one Crank-Nicolson step.

    r holds len(u)+1 face values; faces 0 and n touch the zero-valued walls.
    """
    n = u.shape[0]
    a = work[0]
    b = work[1]
    c = work[2]
    d = work[3]
    half_inner = 0.5 * r[1:n]
    a[0] = 0.0
    a[1:] = -half_inner
    c[n - 1] = 0.0
    c[:n - 1] = -half_inner
    b[...] = 1.0 + 0.5 * (r[:n] + r[1:])
    np.multiply(u, 1.0 - 0.5 * (r[:n] + r[1:]), out=d)
    d[1:] += half_inner * u[:-1]
    d[:-1] += half_inner * u[1:]


def simulate(u, work, kappa, dx, dt, steps):
    """Advance u in place. kappa has len(u)+1 face values.

    Returns (elapsed time as a 0-d array, total heat history)."""
    r = kappa * dt / (dx * dx)
    time = np.zeros(())
    history = np.zeros(steps)
    for k in range(steps):
        build_system(u, r, work)
        thomas_solve(work[0], work[1], work[2], work[3], u)
        time += dt
        history[k] = np.sum(u) * dx
    return time, history


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, steps = 8, 1
    else:
        n, steps = 2000, 200
    dx = 1.0 / n
    x = (np.arange(n) + 0.5) * dx
    u = np.exp(-((x - 0.5) / 0.1) ** 2) + 0.01 * rng.random(n)
    kappa = 1.0 + 0.5 * rng.random(n + 1)
    return dict(u=u, work=np.zeros((4, n)), kappa=kappa, dx=dx, dt=1.0e-4,
                steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    t, hist = simulate(**inputs)
    u = inputs["u"]
    print(f"time       = {float(t):.6f}")
    print(f"heat start = {hist[0]:.6f}")
    print(f"heat end   = {hist[-1]:.6f}")
    print(f"max u      = {u.max():.6f}")
