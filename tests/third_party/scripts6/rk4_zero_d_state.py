"""RK4 for a scalar ODE whose state starts as a 0-d array (`y = np.array(y0)`) and is rebound
by `y = y + dt * k`, which makes it a NumPy scalar after the first step; a vector RK4 with
an early return when the solution leaves a bound; `t` a Python float counted up by `dt`.
"""
import numpy as np


def f_scalar(t, y):
    return -2.0 * y + np.sin(t)


def rk4_scalar(y0, dt, nsteps):
    y = np.array(y0)
    t = 0.0
    kinds = []
    for n in range(nsteps):
        k1 = f_scalar(t, y)
        k2 = f_scalar(t + 0.5 * dt, y + 0.5 * dt * k1)
        k3 = f_scalar(t + 0.5 * dt, y + 0.5 * dt * k2)
        k4 = f_scalar(t + dt, y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += dt
        if n < 2:
            kinds.append(type(y).__name__)
    return y, t, kinds


def lorenz(s, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
    x, y, z = s
    return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])


def rk4_escape(s, dt, nsteps, bound):
    traj = np.zeros((nsteps + 1, 3))
    traj[0] = s
    for n in range(nsteps):
        k1 = lorenz(s)
        k2 = lorenz(s + 0.5 * dt * k1)
        k3 = lorenz(s + 0.5 * dt * k2)
        k4 = lorenz(s + dt * k3)
        s = s + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6.0
        traj[n + 1] = s
        if np.abs(s[0]) > bound:
            return n + 1, s, traj
    return nsteps, s, traj


def accumulate_0d(vals):
    acc = np.zeros(())
    for v in vals:
        acc += v
    peak = np.array(0.0)
    for v in vals:
        peak = np.maximum(peak, v)
    return acc, peak


CHECKS = {
    "rk4_scalar": lambda: (1.0, 0.05, 20),
    "rk4_escape": lambda: (np.array([1.0, 1.0, 1.0]), 0.01, 60, 12.0),
    "rk4_escape#never": lambda: (np.array([1.0, 1.0, 1.0]), 0.01, 30, 1e9),
    "accumulate_0d": lambda: (np.array([0.5, -1.0, 2.5, 0.25]),),
}

if __name__ == "__main__":
    y, t, kinds = rk4_scalar(1.0, 0.05, 20)
    print(repr(y), type(y).__name__, repr(t), kinds)
    n, s, traj = rk4_escape(np.array([1.0, 1.0, 1.0]), 0.01, 60, 12.0)
    print(n, np.round(s, 10).tolist(), repr(traj.sum()))
    acc, peak = accumulate_0d(np.array([0.5, -1.0, 2.5, 0.25]))
    print(repr(acc), type(acc).__name__, repr(peak), type(peak).__name__)
