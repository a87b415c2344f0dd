"""Steady heat conduction in a perforated plate, Jacobi iteration to a tolerance, then a
transient from the steady state.

Domain: heat transfer. A square plate with a uniform heat source has its edges and a lattice of
circular holes (built by set-up code from `np.meshgrid(range(n), range(n))`) held at zero
temperature. The steady state is found by Jacobi sweeps in a data-dependent `while` loop that
rebinds the iterate and re-imposes the holes each pass (`U = 1.0 * Unew; U[holes] = 0.0`). The
field is then scaled to unit peak by a helper that rebinds its parameter
(`def normalise(v): v = v / v.max(); return v`), written in place afterwards (`T = normalise(U);
T += 0.1`), and relaxed by explicit time steps with the source off; the heat content is printed.
"""
import numpy as np

ENTRY = "solve_plate"
# np2ref: verify vmap  (grad: JAX cannot reverse-differentiate a while loop)


def perforations(n, pitch, radius):
    """Holes of the given radius on a square lattice of the given pitch (in cells)."""
    X, Y = np.meshgrid(range(n), range(n))
    dx = (X % pitch) - pitch / 2.0
    dy = (Y % pitch) - pitch / 2.0
    holes = dx * dx + dy * dy < radius * radius
    holes[0, :] = holes[-1, :] = holes[:, 0] = holes[:, -1] = True
    return holes


def jacobi_sweep(U, source, h):
    Unew = U.copy()
    Unew[1:-1, 1:-1] = 0.25 * (U[2:, 1:-1] + U[:-2, 1:-1] + U[1:-1, 2:] + U[1:-1, :-2]
                               + h * h * source[1:-1, 1:-1])
    return Unew


def normalise(v):
    v = v / v.max()
    return v


def solve_plate(U, holes, source, h, tol, max_iter, nsteps, alpha):
    """Returns the sweeps taken, the normalised temperature after nsteps transient steps and
    its heat content per step; U (the initial guess) is left as given."""
    err = tol + 1.0
    it = 0
    while err > tol and it < max_iter:
        Unew = jacobi_sweep(U, source, h)
        U_old = U
        U = 1.0 * Unew
        U[holes] = 0.0
        err = np.max(np.abs(U - U_old))
        it += 1
        if it % 100 == 0:
            print(f"sweep {it:5d}  change = {err:.6e}  peak = {U.max():.10f}")
    T = normalise(U)
    T += 0.1  # a uniform pulse of heat on top of the steady profile
    T[holes] = 0.0
    heat = np.zeros(nsteps)
    for step in range(nsteps):
        T[1:-1, 1:-1] += alpha * (T[2:, 1:-1] + T[:-2, 1:-1] + T[1:-1, 2:] + T[1:-1, :-2]
                                  - 4.0 * T[1:-1, 1:-1])
        T[holes] = 0.0
        heat[step] = T.sum() * h * h
    print(f"converged after {it} sweeps, heat content {heat[-1]:.10f}")
    return it, T, heat


def make_inputs(size="small"):
    n, max_iter, nsteps = (12, 300, 5) if size == "small" else (96, 20000, 400)
    holes = perforations(n, n // 3, n / 12.0)
    return dict(U=np.zeros((n, n)), holes=holes, source=np.ones((n, n)), h=1.0 / (n - 1),
                tol=1e-9, max_iter=max_iter, nsteps=nsteps, alpha=0.2)


if __name__ == "__main__":
    inputs = make_inputs("large")
    it, T, heat = solve_plate(**inputs)
    print(f"sweeps       = {it}")
    print(f"heat lost    = {(heat[0] - heat[-1]) / heat[0]:.10f}")
    print(f"peak T       = {T.max():.10f}")
