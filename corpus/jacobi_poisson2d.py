"""Weighted Jacobi iteration for the 2-D Poisson equation -lap(phi) = f.

Domain: electrostatic potential in a grounded square box containing a
grounded internal conductor (boolean obstacle mask) and a few fixed point
charges on top of a smooth background charge density. Homogeneous Dirichlet
conditions on the outer boundary. Two buffers are swapped every sweep and the
residual norm is recorded per iteration.
"""
import numpy as np

ENTRY = "solve"

EPS0 = 1.0       # scaled permittivity


def build_rhs(rhs, background, src_idx, src_val):
    """rhs = background / eps0 plus point charges, written in place."""
    np.divide(background, EPS0, out=rhs)
    flat = rhs.ravel()              # view of the contiguous rhs
    flat[src_idx] = src_val         # pinned point charges (distinct cells)
    rhs[0, :] = 0.0
    rhs[-1, :] = 0.0
    rhs[:, 0] = 0.0
    rhs[:, -1] = 0.0


def jacobi_sweep(cur, nxt, rhs, h2, omega):
    nxt[1:-1, 1:-1] = 0.25 * (cur[2:, 1:-1] + cur[:-2, 1:-1]
                              + cur[1:-1, 2:] + cur[1:-1, :-2]
                              + h2 * rhs[1:-1, 1:-1])
    interior = nxt[1:-1, 1:-1]
    interior *= omega
    interior += (1.0 - omega) * cur[1:-1, 1:-1]


def residual(phi, rhs, res, h2, obstacle):
    res.fill(0.0)
    res[1:-1, 1:-1] = rhs[1:-1, 1:-1] - (4.0 * phi[1:-1, 1:-1] - phi[2:, 1:-1]
                                         - phi[:-2, 1:-1] - phi[1:-1, 2:]
                                         - phi[1:-1, :-2]) / h2
    res[obstacle] = 0.0
    return np.linalg.norm(res)


def solve(phi, background, src_idx, src_val, obstacle, h, omega, iters):
    """Iterate in place on phi; return the residual history."""
    h2 = h * h
    rhs = np.zeros_like(phi)
    build_rhs(rhs, background, src_idx, src_val)
    phi[obstacle] = 0.0
    cur = phi
    nxt = phi.copy()
    res = np.zeros_like(phi)
    history = np.zeros(iters)
    for k in range(iters):
        jacobi_sweep(cur, nxt, rhs, h2, omega)
        nxt[obstacle] = 0.0
        cur, nxt = nxt, cur
        history[k] = residual(cur, rhs, res, h2, obstacle)
    np.copyto(phi, cur)
    return history


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, iters, nsrc = 12, 15, 3
    else:
        n, iters, nsrc = 128, 3000, 20
    h = 1.0 / (n - 1)
    x = np.linspace(0.0, 1.0, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    background = 10.0 * np.sin(np.pi * X) * np.sin(np.pi * Y)
    phi = 0.01 * rng.random((n, n))
    phi[0, :] = 0.0
    phi[-1, :] = 0.0
    phi[:, 0] = 0.0
    phi[:, -1] = 0.0
    interior = np.arange(n * n).reshape(n, n)[1:-1, 1:-1].ravel()
    src_idx = rng.choice(interior, size=nsrc, replace=False)   # distinct cells
    src_val = 100.0 * rng.standard_normal(nsrc)
    obstacle = ((X - 0.7) ** 2 + (Y - 0.6) ** 2) < 0.03
    return dict(phi=phi, background=background, src_idx=src_idx,
                src_val=src_val, obstacle=obstacle, h=h, omega=0.8,
                iters=iters)


if __name__ == "__main__":
    inputs = make_inputs("large")
    hist = solve(**inputs)
    phi = inputs["phi"]
    n = phi.shape[0]
    print(f"first residual = {hist[0]:.6f}")
    print(f"final residual = {hist[-1]:.6f}")
    print(f"sum phi        = {phi.sum():.6f}")
    print(f"centre phi     = {phi[n // 2, n // 2]:.6f}")
