"""Jacobi and Gauss-Seidel relaxation for 2-D Poisson with a tolerance stop.

Domain: steady-state potential in a grounded square box with a charge
distribution. Jacobi sweeps write into a second buffer and then copy back;
Gauss-Seidel sweeps update in place point by point. Both iterate
`while err > tol and it < max_iter`, where err is the largest change made
in the last sweep, and return the iteration count and final error.
"""
# np2ref: verify vmap  (grad: JAX cannot reverse-differentiate a while loop)
import numpy as np

ENTRY = "relax"


def jacobi(u, unew, f, h, tol, max_iter):
    err = tol + 1.0
    it = 0
    while err > tol and it < max_iter:
        unew[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                   + u[1:-1, :-2] + h * h * f[1:-1, 1:-1])
        err = np.max(np.abs(unew[1:-1, 1:-1] - u[1:-1, 1:-1]))
        u[1:-1, 1:-1] = unew[1:-1, 1:-1]
        it += 1
    return it, err


def gauss_seidel(u, f, h, tol, max_iter):
    ny, nx = u.shape
    err = tol + 1.0
    it = 0
    while err > tol and it < max_iter:
        err = 0.0
        for i in range(1, ny - 1):
            for j in range(1, nx - 1):
                old = u[i, j]
                u[i, j] = 0.25 * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1]
                                  + u[i, j - 1] + h * h * f[i, j])
                change = abs(u[i, j] - old)
                if change > err:
                    err = change
        it += 1
    return it, err


def relax(u_j, u_gs, f, h, tol, max_iter):
    """Relax u_j with Jacobi and u_gs with Gauss-Seidel, both in place."""
    work = np.zeros_like(u_j)
    it_j, err_j = jacobi(u_j, work, f, h, tol, max_iter)
    it_gs, err_gs = gauss_seidel(u_gs, f, h, tol, max_iter)
    return it_j, err_j, it_gs, err_gs


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, tol, max_iter = 6, 1.0e-4, 50
    else:
        n, tol, max_iter = 64, 1.0e-6, 20000
    h = 1.0 / (n - 1)
    f = rng.random((n, n))
    f[n // 3, n // 2] += 50.0
    u0 = np.zeros((n, n))
    u0[1:-1, 1:-1] = 0.01 * rng.random((n - 2, n - 2))
    return dict(u_j=u0.copy(), u_gs=u0.copy(), f=f, h=h, tol=tol,
                max_iter=max_iter)


if __name__ == "__main__":
    inputs = make_inputs("large")
    it_j, err_j, it_gs, err_gs = relax(**inputs)
    print(f"jacobi iters = {it_j}  err = {err_j:.3e}")
    print(f"GS iters     = {it_gs}  err = {err_gs:.3e}")
    print(f"sum u_j      = {inputs['u_j'].sum():.6f}")
    print(f"sum u_gs     = {inputs['u_gs'].sum():.6f}")
