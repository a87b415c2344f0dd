"""Crank-Nicolson for the 1-D heat equation with a hand-written Thomas solver: the forward sweep
writes `cp[i]` and `dp[i]` element by element, back substitution runs `for i in range(n - 2, -1,
-1)`, the right-hand side built through views of a work array, Robin boundary rows, a source
switched on after a number of steps, and `u[:] = x` copying the solution into the caller's array.
"""
import numpy as np


def thomas(a, b, c, d, x, cp, dp):
    n = d.shape[0]
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x[n - 1] = dp[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def run(u, r, nsteps, hbc, t_on):
    n = u.shape[0]
    a = np.full(n, -r / 2)
    b = np.full(n, 1.0 + r)
    c = np.full(n, -r / 2)
    a[0] = 0.0
    c[-1] = 0.0
    b[0] += r / 2 * hbc
    b[-1] += r / 2 * hbc
    d = np.empty(n)
    x = np.empty(n)
    cp = np.empty(n)
    dp = np.empty(n)
    inner = d[1:-1]
    for step in range(nsteps):
        inner[:] = u[1:-1] + r / 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        d[0] = u[0] + r / 2 * (u[1] - u[0] - hbc * u[0])
        d[-1] = u[-1] + r / 2 * (u[-2] - u[-1] - hbc * u[-1])
        if step >= t_on:
            d[n // 2] += 0.01
        thomas(a, b, c, d, x, cp, dp)
        u[:] = x
        if step % 5 == 0:
            print(step, repr(u.max()), repr(u.sum()))
    return u, d


def initial(n):
    g = np.linspace(0, 1, n)
    return np.where(np.abs(g - 0.3) < 0.1, 1.0, 0.0)


CHECKS = {"run": lambda: (initial(30), 0.8, 12, 0.5, 6),
          "thomas": lambda: (np.full(6, -1.0), np.full(6, 4.0), np.full(6, -1.0), np.arange(6.0),
                             np.zeros(6), np.zeros(6), np.zeros(6))}

if __name__ == "__main__":
    u = initial(30)
    u, d = run(u, 0.8, 20, 0.5, 6)
    print(repr(u.tolist()[::5]), repr(d[0]))
