"""Steady 3-D heat conduction in a block with a heated core, in the pattern of engineering
course scripts: the boundary by np.pad each sweep (a fixed cold temperature on the x faces
with `mode="constant", constant_values=`, insulated y and z faces with `mode="edge"`, padded
one axis at a time with a list of pad widths), a weighted Jacobi update `u += omega * (new - u)`
inside a `while change > tol and it < max_it` loop, the relative change under np.errstate (the
cold cells are zero, so 0/0 is NaN and np.nanmax skips it), an early return when the iteration
blows up (omega too large), the heat flux through the cold faces from one-sided differences
compared with the total source (the energy balance), and progress printed every few sweeps.
"""
import numpy as np

T_COLD = 0.0
K_COND = 2.0


def padded(u):
    p = np.pad(u, [(1, 1), (0, 0), (0, 0)], mode="constant", constant_values=T_COLD)
    return np.pad(p, [(0, 0), (1, 1), (1, 1)], mode="edge")


def sweep(u, q, h, omega):
    p = padded(u)
    new = (p[:-2, 1:-1, 1:-1] + p[2:, 1:-1, 1:-1] + p[1:-1, :-2, 1:-1] + p[1:-1, 2:, 1:-1]
           + p[1:-1, 1:-1, :-2] + p[1:-1, 1:-1, 2:] + h * h * q / K_COND) / 6.0
    delta = new - u
    u += omega * delta
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = np.abs(delta) / np.abs(u)
    return np.nanmax(rel), np.abs(delta).max()


def solve(u, q, h, omega=1.0, tol=1e-6, max_it=400, every=50):
    change = np.inf
    it = 0
    while change > tol and it < max_it:
        rel, change = sweep(u, q, h, omega)
        it += 1
        if not np.isfinite(change) or change > 1e6:
            print("diverged at", it)
            return it, False
        if it % every == 0:
            print("it", it, "change", "%.6e" % change, "rel", "%.6e" % rel, "centre", "%.8f" % u[tuple(s // 2 for s in u.shape)])
    return it, True


def cold_face_flux(u, h):
    """Conductive heat leaving through the two x faces (half-cell one-sided differences)."""
    left = K_COND * (u[0] - T_COLD) / (0.5 * h)
    right = K_COND * (u[-1] - T_COLD) / (0.5 * h)
    return (left.sum() + right.sum()) * h * h


def core(n, power=50.0):
    q = np.zeros((n, n, n))
    c = slice(n // 2 - 1, n // 2 + 1)
    q[c, c, c] = power
    return q


CHECKS = {
    "solve": lambda: (np.zeros((6, 6, 6)), core(6), 0.2, 1.0, 1e-4, 60, 20),
    "solve#diverge": lambda: (np.zeros((4, 4, 4)), core(4), 0.25, 2.5, 1e-6, 200, 10),
    "sweep": lambda: (np.arange(64.0).reshape(4, 4, 4) % 3, core(4), 0.25, 1.2),
    "padded": lambda: (np.arange(24.0).reshape(2, 3, 4),),
    "cold_face_flux": lambda: (np.arange(64.0).reshape(4, 4, 4) / 10.0, 0.25),
}

if __name__ == "__main__":
    n = 8
    h = 1.0 / n
    q = core(n)
    u = np.zeros((n, n, n))
    its, ok = solve(u, q, h, omega=1.0, tol=1e-7, max_it=300, every=60)
    source = q.sum() * h ** 3
    print("iterations", its, "converged", ok)
    print("balance", repr(round(float(cold_face_flux(u, h) / source), 6)))
    print(np.round(u[:, n // 2, n // 2], 6))
    w = np.zeros((n, n, n))
    print(solve(w, q, h, omega=2.2, tol=1e-7, max_it=300))
