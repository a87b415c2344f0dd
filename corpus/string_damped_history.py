"""Damped vibrating string (semi-implicit Euler in time, central differences in space) with an
energy history, snapshots and a progress report.

The way many teaching and research scripts record a run: a Python list per quantity, one
append per time step (`energies.append(e)`, `snapshots.append(u[::8].copy())`, the time as
a Python float), and a `print` every `report_every` steps. NumPy's lists come back: the
energies as NumPy float64 scalars (np.array'd for the result), the times as Python floats, the
snapshots as arrays of their own. np2ref compiles the whole time loop (the appends stacked at
the trip index, the print an ordered host callback in its branch).
"""
import numpy as np

ENTRY = "simulate"


def energy(u, v, dx, c):
    """Kinetic plus strain energy of the string."""
    grad = (u[1:] - u[:-1]) / dx
    return 0.5 * dx * (np.sum(v * v) + c * c * np.sum(grad * grad))


def simulate(u, v, c, dx, dt, damping, steps, report_every):
    """Advance (u, v) in place by `steps` steps; returns (energies, times, snapshots)."""
    energies = []
    times = []
    snapshots = []
    lap = np.zeros_like(u)
    t = 0.0
    for step in range(steps):
        lap[1:-1] = (u[2:] - 2.0 * u[1:-1] + u[:-2]) / (dx * dx)
        v += dt * (c * c * lap - damping * v)
        u += dt * v
        u[0] = 0.0
        u[-1] = 0.0
        t += dt
        e = energy(u, v, dx, c)
        energies.append(e)
        times.append(t)
        snapshots.append(u[::8].copy())
        if step % report_every == 0:
            print("step", step, "t", round(t, 6), "energy", e)
    return np.array(energies), times, snapshots


def make_inputs(size="small"):
    n, steps, every = (33, 40, 10) if size == "small" else (4097, 20000, 2000)
    x = np.linspace(0.0, 1.0, n)
    dx = x[1] - x[0]
    c = 1.0
    u = np.exp(-200.0 * (x - 0.3) ** 2)
    u[0] = u[-1] = 0.0
    v = np.zeros(n)
    return dict(u=u, v=v, c=c, dx=dx, dt=0.4 * dx / c, damping=0.05, steps=steps, report_every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energies, times, snapshots = simulate(**inputs)
    print("steps          =", len(times))
    print("final time     = %.6f" % times[-1])
    print("energy ratio   = %.6f" % (energies[-1] / energies[0]))
    print("snapshot max   = %.6f" % np.max(np.abs(snapshots[-1])))
