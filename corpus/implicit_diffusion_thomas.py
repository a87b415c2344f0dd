"""Backward-Euler diffusion with a reaction sink, the tridiagonal solve written by hand as a
nested Thomas solver (`def tdma(...)`) that writes captured scratch arrays, a closure computing
the right-hand side, negative concentrations clipped by a masked store, and asserts on the data."""
import math

import numpy as np

ENTRY = "diffuse"


def diffuse(c, d_coef, k_sink, dt, nt):
    n = c.shape[0]
    h = 1.0 / (n - 1)
    lam = d_coef * dt / h ** 2
    sink = 1.0 - math.expm1(-k_sink * dt)
    cp = np.zeros(n)
    dp = np.zeros(n)
    total = np.zeros(nt)

    def tdma(a, b, cc, rhs, x):
        cp[0] = cc / b
        dp[0] = rhs[0] / b
        for i in range(1, n):
            m = b - a * cp[i - 1]
            cp[i] = cc / m
            dp[i] = (rhs[i] - a * dp[i - 1]) / m
        x[n - 1] = dp[n - 1]
        for i in range(n - 2, -1, -1):
            x[i] = dp[i] - cp[i] * x[i + 1]

    def source(x):
        return x / sink + 0.01 * dt

    for t in range(nt):
        tdma(-lam, 1.0 + 2.0 * lam, -lam, source(c), c)
        c[c < 0.0] = 0.0
        assert np.all(np.isfinite(c))
        total[t] = h * c.sum()
    return total


def make_inputs(size="small"):
    n, nt = (10, 4) if size == "small" else (4000, 300)
    x = np.linspace(0.0, 1.0, n)
    return dict(c=np.exp(-80.0 * (x - 0.4) ** 2) - 0.05, d_coef=0.02, k_sink=0.5, dt=0.01, nt=nt)


if __name__ == "__main__":
    inputs = make_inputs("large")
    total = diffuse(**inputs)
    print(f"mass = {total[-1]:.10f}")
