"""1-D viscous-free Burgers equation, MUSCL finite volumes with a minmod flux limiter.

Domain: CFD / conservation laws. The cell averages u on a periodic grid are advanced by Heun's
method (two stages). Each stage reconstructs limited slopes with a helper (`minmod(a, b)`), the
interface states with a helper returning a pair (`left, right = interfaces(u, slope)`), and the
Rusanov flux; the periodic ghost cells are filled by a helper that writes them and returns its
argument (`u = fill_ghosts(u)`). The initial sine wave comes from a set-up function. Mass (kept
exactly by the conservative form), total variation and the maximum are printed every few steps.
"""
import numpy as np  # np2ref: expect-refused NPR201
# (`u1 = u + dt * rhs(u, dx)`: rhs fills u's ghost cells in place through fill_ghosts, and NumPy's
# `+` reads u after that; the translation read u before the call, a wrong ghost cell: now refused)

ENTRY = "run_burgers"
NG = 2  # ghost cells on each side


def initial_wave(n, L):
    x = (np.arange(n) + 0.5) * L / n
    u = np.zeros(n + 2 * NG)
    u[NG:-NG] = 0.5 + np.sin(2 * np.pi * x / L)
    return u


def fill_ghosts(u):
    u[:NG] = u[-2 * NG:-NG]
    u[-NG:] = u[NG:2 * NG]
    return u


def minmod(a, b):
    return np.where(a * b > 0.0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def interfaces(u, slope):
    """States left and right of each interface i+1/2, for i from NG-1 to n+NG-1."""
    left = u[NG - 1:-NG] + 0.5 * slope[NG - 1:-NG]
    right = u[NG:-NG + 1] - 0.5 * slope[NG:-NG + 1]
    return left, right


def rhs(u, dx):
    u = fill_ghosts(u)
    slope = np.zeros_like(u)
    slope[1:-1] = minmod(u[1:-1] - u[:-2], u[2:] - u[1:-1])
    left, right = interfaces(u, slope)
    speed = np.maximum(np.abs(left), np.abs(right))
    flux = 0.25 * (left ** 2 + right ** 2) - 0.5 * speed * (right - left)
    du = np.zeros_like(u)
    du[NG:-NG] = -(flux[1:] - flux[:-1]) / dx
    return du


def run_burgers(u, L, cfl, nsteps, every):
    """Advance u (ghost cells included) in place; returns the time reached."""
    n = u.shape[0] - 2 * NG
    dx = L / n
    t = 0.0
    for step in range(nsteps):
        dt = cfl * dx / np.max(np.abs(u))
        u1 = u + dt * rhs(u, dx)
        u[:] = 0.5 * (u + u1 + dt * rhs(u1, dx))
        t += dt
        if step % every == 0:
            inner = u[NG:-NG]
            print(f"step {step:4d}  t = {t:.8f}  mass = {inner.sum() * dx:.12f}  "
                  f"TV = {np.abs(np.diff(inner)).sum():.10f}  max = {inner.max():.10f}")
    return t


def make_inputs(size="small"):
    n, nsteps, every = (16, 6, 2) if size == "small" else (400, 800, 100)
    return dict(u=initial_wave(n, 2.0), L=2.0, cfl=0.4, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    t = run_burgers(**inputs)
    print(f"t = {t:.10f}  min = {inputs['u'][NG:-NG].min():.10f}")
