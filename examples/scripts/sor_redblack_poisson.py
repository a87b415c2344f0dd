"""Red-black SOR for the 2-D Poisson equation, a convergence `while True` with a `break`.

-lap(u) = f on the unit square with u = 0 on the boundary; red and black interior points are
boolean masks; each half sweep updates the masked points in place (`u[red] += omega * r[red]`)
from the residual of the whole grid; the loop stops on the max-norm of the update or after
MAXIT sweeps. The iteration count and residual are printed; the residual history is returned.
"""
import numpy as np

ENTRY = "sor"
MAXIT = 500


def residual(u, f, h2):
    r = np.zeros_like(u)
    r[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                            + h2 * f[1:-1, 1:-1]) - u[1:-1, 1:-1]
    return r


def colours(shape):
    i, j = np.indices(shape)
    interior = np.zeros(shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    return interior & ((i + j) % 2 == 0), interior & ((i + j) % 2 == 1)


def sor(u, f, omega, tol):
    n = u.shape[0]
    h2 = (1.0 / (n - 1)) ** 2
    red, black = colours(u.shape)
    it = 0
    history = []
    while True:
        change = 0.0
        for mask in (red, black):
            r = residual(u, f, h2)
            u[mask] += omega * r[mask]
            change = max(change, np.max(np.abs(r[mask])))
        it += 1
        history.append(change)
        if change < tol:
            break
        if it >= MAXIT:
            print("no convergence")
            break
    print(it, repr(float(change)))
    return it, np.array(history)


def make_inputs(size="small"):
    n = 9 if size == "small" else 33
    x = np.linspace(0.0, 1.0, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    f = 2.0 * np.pi ** 2 * np.sin(np.pi * X) * np.sin(np.pi * Y)
    return dict(u=np.zeros((n, n)), f=f, omega=1.5, tol=1e-8)


if __name__ == "__main__":
    inputs = make_inputs("large")
    it, hist = sor(**inputs)
    u = inputs["u"]
    print(repr(it), repr(hist[-3:].tolist()), repr(u.max()), repr(u[16, 10:14].tolist()))
