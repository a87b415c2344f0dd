"""Diagnostics printed with `"%.5e" % value` beside other values, the way residual logs print
(tests/third_party/scripts13a/multigrid_vcycle_2d.py): a print holding a `%` of text followed
by an argument that is no literal, and two `%` arguments in one print."""
import numpy as np


def residuals(u, steps):
    norm = np.linalg.norm(u)
    for k in range(steps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        new = np.linalg.norm(u)
        print("cycle", k, "residual", "%.5e" % new, "factor", round(float(new / norm), 6))
        norm = new
    return norm


def two_percents(u):
    print("max %.4f" % u.max(), "min %.4f at %d" % (u.min(), u.argmin()), u.sum())
    return u.mean()
