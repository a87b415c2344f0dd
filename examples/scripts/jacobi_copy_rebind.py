"""Jacobi iteration for Laplace's equation: `u = u_new.copy()` each sweep, then boundaries written.

The textbook script allocates `u_new` from `u.copy()`, updates its interior, measures the change,
and rebinds `u = u_new.copy()`: from the first sweep on `u` is a fresh array and the caller's
grid keeps its first-sweep boundary write only. A residual list grows in a `while` whose trip
count is fixed by `maxit` (the test also reads the data), and `assert` checks a bound.
"""
import numpy as np

ENTRY = "solve_laplace"


def apply_dirichlet(u, top):
    u[0, :] = top
    u[-1, :] = 0.0
    u[:, 0] = 0.0
    u[:, -1] = 0.0


def solve_laplace(u, top, tol, maxit):
    apply_dirichlet(u, top)
    it = 0
    err = 1.0
    residuals = np.zeros(maxit)
    while it < maxit:
        u_new = u.copy()
        u_new[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2])
        err = np.abs(u_new - u).max()
        residuals[it] = err
        u = u_new.copy()
        apply_dirichlet(u, top * (1.0 + 0.01 * it))
        it += 1
        if err < tol:
            break
    assert err >= 0.0, "negative error"
    print("iterations", it, "error", repr(float(err)))
    return u, it, residuals


def make_inputs(size="small"):
    n = 8 if size == "small" else 40
    return dict(u=np.zeros((n, n)), top=1.0, tol=1e-4, maxit=30)


if __name__ == "__main__":
    inputs = make_inputs("large")
    u, it, res = solve_laplace(**inputs)
    print(repr(u.sum()), it, repr(res[it - 3:it].tolist()), repr(inputs["u"].sum()))
