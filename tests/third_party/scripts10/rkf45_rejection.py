"""Runge-Kutta-Fehlberg 4(5) on the Van der Pol oscillator and a damped pendulum: `while t < T:`
with `if err > tol: h *= ...; continue` rejections, `h = min(h, T - t)` at the end, accepted
steps written into preallocated arrays with a counter, the Butcher tableau as module arrays,
stages kept in a (6, n) work array a helper fills row by row, the right-hand side passed in.
"""
import numpy as np

A = np.array([
    [0.0, 0.0, 0.0, 0.0, 0.0],
    [1 / 4, 0.0, 0.0, 0.0, 0.0],
    [3 / 32, 9 / 32, 0.0, 0.0, 0.0],
    [1932 / 2197, -7200 / 2197, 7296 / 2197, 0.0, 0.0],
    [439 / 216, -8.0, 3680 / 513, -845 / 4104, 0.0],
    [-8 / 27, 2.0, -3544 / 2565, 1859 / 4104, -11 / 40],
])
C = np.array([0.0, 1 / 4, 3 / 8, 12 / 13, 1.0, 1 / 2])
B4 = np.array([25 / 216, 0.0, 1408 / 2565, 2197 / 4104, -1 / 5, 0.0])
B5 = np.array([16 / 135, 0.0, 6656 / 12825, 28561 / 56430, -9 / 50, 2 / 55])
MU = 2.0


def vdp(t, y):
    return np.array([y[1], MU * (1.0 - y[0] ** 2) * y[1] - y[0]])


def pendulum(t, y):
    return np.array([y[1], -0.3 * y[1] - 9.81 * np.sin(y[0]) + 0.5 * np.cos(1.2 * t)])


def stages(f, t, y, h, k):
    for i in range(6):
        yi = y + h * (A[i, :i] @ k[:i]) if i else y
        k[i] = f(t + C[i] * h, yi)


def rkf45(f, y0, T, tol=1e-6, h=0.1, max_steps=500):
    y = y0.copy()
    k = np.zeros((6, y.size))
    ts = np.zeros(max_steps)
    ys = np.zeros((max_steps, y.size))
    t = 0.0
    n = 0
    rejected = 0
    while t < T and n < max_steps:
        h = min(h, T - t)
        stages(f, t, y, h, k)
        y4 = y + h * (B4 @ k)
        y5 = y + h * (B5 @ k)
        err = np.max(np.abs(y5 - y4))
        if err > tol:
            rejected += 1
            h *= max(0.1, 0.9 * (tol / err) ** 0.25)
            continue
        t += h
        y = y5
        ts[n] = t
        ys[n] = y
        n += 1
        if err > 0:
            h *= min(4.0, 0.9 * (tol / err) ** 0.2)
    return ts, ys, n, rejected, h


def vdp_run(T, tol):
    return rkf45(vdp, np.array([2.0, 0.0]), T, tol)


def pendulum_run(y0, T):
    ts, ys, n, rejected, h = rkf45(pendulum, y0, T, 1e-7, 0.05)
    return ys[n - 1], n, rejected


CHECKS = {
    "vdp_run": lambda: (3.0, 1e-6),
    "vdp_run#loose": lambda: (1.5, 1e-3),
    "pendulum_run": lambda: (np.array([1.0, 0.0]), 2.0),
    "stages": lambda: (vdp, 0.0, np.array([1.0, 0.5]), 0.1, np.zeros((6, 2))),
}

if __name__ == "__main__":
    for tol in (1e-4, 1e-7):
        ts, ys, n, rejected, h = vdp_run(4.0, tol)
        print("tol", tol, "steps", n, "rejected", rejected, "last h", f"{h:.6f}")
        print("  y(T)", ys[n - 1], repr(ts[n - 1]))
    y, n, rej = pendulum_run(np.array([0.5, 0.0]), 3.0)
    print("pendulum", y, n, rej)
