"""A geometric multigrid solver for the 2-D Poisson equation -lap(u) = f with zero Dirichlet
boundaries, in the pattern of the textbook V-cycle codes: red-black Gauss-Seidel written with
strided slices (`u[1:-1:2, 1:-1:2]`, ...) of the array handed in, the residual into a work array,
full-weighting restriction and bilinear prolongation by slices of every other point, the
correction added in place through `u += e`, a recursive V-cycle with an exact solve on the
coarsest grid, and a `while` loop of cycles on the residual's norm with the convergence factor
printed each cycle (the residual by "%.5e" %: after seven cycles it is 1e-7 of f, a difference
of nearly equal sums, so the last bits of u that XLA's reciprocal products move show in its
eighth digit).
"""
import numpy as np

NU1, NU2 = 2, 2


def smooth(u, f, h, sweeps):
    """Red-black Gauss-Seidel: the red points (i + j even) first, then the black ones."""
    h2 = h * h
    for _ in range(sweeps):
        for (ri, rj) in ((1, 1), (2, 2), (1, 2), (2, 1)):
            u[ri:-1:2, rj:-1:2] = 0.25 * (u[ri - 1:-2:2, rj:-1:2] + u[ri + 1::2, rj:-1:2]
                                          + u[ri:-1:2, rj - 1:-2:2] + u[ri:-1:2, rj + 1::2]
                                          + h2 * f[ri:-1:2, rj:-1:2])


def residual(u, f, h, r):
    r[...] = 0.0
    r[1:-1, 1:-1] = f[1:-1, 1:-1] + (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                      - 4.0 * u[1:-1, 1:-1]) / (h * h)
    return r


def restrict(r):
    """Full weighting onto the grid of every other point."""
    n = (r.shape[0] - 1) // 2
    rc = np.zeros((n + 1, n + 1))
    rc[1:-1, 1:-1] = (4.0 * r[2:-2:2, 2:-2:2]
                      + 2.0 * (r[1:-3:2, 2:-2:2] + r[3:-1:2, 2:-2:2] + r[2:-2:2, 1:-3:2] + r[2:-2:2, 3:-1:2])
                      + r[1:-3:2, 1:-3:2] + r[1:-3:2, 3:-1:2] + r[3:-1:2, 1:-3:2] + r[3:-1:2, 3:-1:2]) / 16.0
    return rc


def prolong(ec, e):
    """Bilinear interpolation of the coarse correction ec into e (the fine grid's size)."""
    e[::2, ::2] = ec
    e[1::2, ::2] = 0.5 * (ec[:-1, :] + ec[1:, :])
    e[::2, 1::2] = 0.5 * (ec[:, :-1] + ec[:, 1:])
    e[1::2, 1::2] = 0.25 * (ec[:-1, :-1] + ec[1:, :-1] + ec[:-1, 1:] + ec[1:, 1:])


def vcycle(u, f, h, level):
    if u.shape[0] <= 3:
        u[1, 1] = 0.25 * h * h * f[1, 1]  # the one interior point, exactly
        return u
    smooth(u, f, h, NU1)
    r = residual(u, f, h, np.empty_like(u))
    rc = restrict(r)
    ec = np.zeros_like(rc)
    vcycle(ec, rc, 2.0 * h, level + 1)
    e = np.zeros_like(u)
    prolong(ec, e)
    u += e
    smooth(u, f, h, NU2)
    return u


def solve(f, tol=1e-8, max_cycles=12):
    n = f.shape[0] - 1
    h = 1.0 / n
    u = np.zeros_like(f)
    levels = 0
    m = n
    while m > 2:
        levels += 1
        m //= 2
    r = np.zeros_like(f)
    norm0 = np.linalg.norm(residual(u, f, h, r))
    norm = norm0
    cycles = 0
    while norm > tol * norm0 and cycles < max_cycles:
        vcycle(u, f, h, 0)
        new = np.linalg.norm(residual(u, f, h, r))
        print("cycle", cycles, "of", levels, "levels", "residual", "%.5e" % new, "factor", round(float(new / norm), 6))
        norm = new
        cycles += 1
    return u, cycles


def rhs(n):
    x = np.linspace(0.0, 1.0, n + 1)
    X, Y = np.meshgrid(x, x, indexing="ij")
    return 2.0 * np.pi ** 2 * np.sin(np.pi * X) * np.sin(np.pi * Y)


CHECKS = {
    "solve": lambda: (rhs(16),),
    "solve#loose": lambda: (rhs(8), 1e-3, 3),
    "smooth": lambda: (np.zeros((9, 9)), rhs(8), 0.125, 2),
    "residual": lambda: (np.arange(81.0).reshape(9, 9) % 5, rhs(8), 0.125, np.ones((9, 9))),
    "restrict": lambda: (np.arange(81.0).reshape(9, 9) % 7,),
    "prolong": lambda: (np.arange(25.0).reshape(5, 5), np.zeros((9, 9))),
    "vcycle": lambda: (np.zeros((9, 9)), rhs(8), 0.125, 0),
}

if __name__ == "__main__":
    n = 32
    u, cycles = solve(rhs(n))
    x = np.linspace(0.0, 1.0, n + 1)
    exact = np.outer(np.sin(np.pi * x), np.sin(np.pi * x))
    print("cycles", cycles, "error", repr(round(float(np.max(np.abs(u - exact))), 10)))
    print(np.round(u[n // 2, ::4], 8))
