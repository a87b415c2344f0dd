"""A multigrid V-cycle for -u'' = f on [0, 1] with Dirichlet ends: weighted Jacobi smoothing in
place on the interior (`u[1:-1] = (1 - w) * u[1:-1] + ...` from a copy), full-weighting
restriction into a new array, linear interpolation added through strided views (`u[::2] += e`,
`u[1::2] += 0.5 * (e[:-1] + e[1:])`), the cycle recursive down to three points, and cycles run
until the residual norm falls by 1e-8 with the reduction factors printed.
"""
import numpy as np


def smooth(u, f, h, sweeps, w=2.0 / 3.0):
    for _ in range(sweeps):
        old = u.copy()
        u[1:-1] = (1 - w) * old[1:-1] + w * 0.5 * (old[:-2] + old[2:] + h * h * f[1:-1])
    return u


def residual(u, f, h):
    r = np.zeros_like(u)
    r[1:-1] = f[1:-1] + (u[:-2] - 2 * u[1:-1] + u[2:]) / (h * h)
    return r


def restrict(r):
    rc = r[::2].copy()
    rc[1:-1] = 0.25 * r[1:-2:2] + 0.5 * r[2:-1:2] + 0.25 * r[3::2]
    return rc


def vcycle(u, f, h):
    if u.size <= 3:
        u[1] = 0.5 * (u[0] + u[2] + h * h * f[1])
        return u
    smooth(u, f, h, 3)
    rc = restrict(residual(u, f, h))
    ec = vcycle(np.zeros_like(rc), rc, 2 * h)
    u[::2] += ec
    u[1::2] += 0.5 * (ec[:-1] + ec[1:])
    smooth(u, f, h, 3)
    return u


def solve(f, tol, max_cycles):
    n = f.size
    h = 1.0 / (n - 1)
    u = np.zeros(n)
    r0 = np.linalg.norm(residual(u, f, h))
    norms = [r0]
    for c in range(max_cycles):
        vcycle(u, f, h)
        rn = np.linalg.norm(residual(u, f, h))
        print("cycle", c, "factor", f"{rn / norms[-1]:.6f}")
        norms.append(rn)
        if rn < tol * r0:
            break
    return u, norms


def rhs(n=65):
    x = np.linspace(0, 1, n)
    return np.pi ** 2 * np.sin(np.pi * x) + 4 * np.pi ** 2 * np.sin(2 * np.pi * x)


CHECKS = {
    "solve": lambda: (rhs(33), 1e-8, 12),
    "vcycle": lambda: (np.zeros(17), rhs(17), 1 / 16),
    "restrict": lambda: (np.arange(9.0),),
}

if __name__ == "__main__":
    u, norms = solve(rhs(), 1e-9, 20)
    x = np.linspace(0, 1, 65)
    print(len(norms), repr(np.abs(u - np.sin(np.pi * x) - np.sin(2 * np.pi * x)).max()))
