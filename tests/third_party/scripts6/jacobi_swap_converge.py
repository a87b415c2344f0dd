"""2-D Jacobi relaxation for Laplace's equation with buffer swaps and an early return.

`a, b = b, a` after each sweep; the function returns as soon as the update is below the
tolerance, from inside the loop, so which of the caller's two arrays holds the answer depends
on the parity of the iteration count. The residual history is a list of NumPy scalars.
"""
import numpy as np

N = 14
TOL = 1e-4
MAXIT = 400


def boundary(n):
    g = np.zeros((n, n))
    g[0, :] = 1.0
    g[:, 0] = np.linspace(1.0, 0.0, n)
    return g


def sweep(src, dst):
    dst[1:-1, 1:-1] = 0.25 * (src[2:, 1:-1] + src[:-2, 1:-1] + src[1:-1, 2:] + src[1:-1, :-2])
    return np.abs(dst[1:-1, 1:-1] - src[1:-1, 1:-1]).max()


def solve(a, b, tol, maxit):
    history = []
    for it in range(maxit):
        change = sweep(a, b)
        history.append(change)
        a, b = b, a
        if change < tol:
            return it + 1, a, history
    return maxit, a, history


def solve_while(a, tol):
    b = a.copy()
    change = tol + 1.0
    it = 0
    while change > tol:
        change = sweep(a, b)
        a, b = b, a
        it += 1
    return it, a


def make_inputs(size="small"):
    g = boundary(N)
    return (g, g.copy(), TOL, MAXIT)


CHECKS = {
    "solve": make_inputs,
    "solve#loose": lambda: (boundary(N), boundary(N), 0.05, MAXIT),
    "solve_while": lambda: (boundary(N), 1e-3),
}

if __name__ == "__main__":
    a, b = boundary(N), boundary(N)
    its, sol, hist = solve(a, b, TOL, MAXIT)
    print("iterations", its, type(its).__name__, sol is a, sol is b)
    print(repr(sol[N // 2, N // 2]), repr(hist[-1]), type(hist[-1]).__name__, len(hist))
    print(repr(a.sum()), repr(b.sum()))
    its2, sol2 = solve_while(boundary(N), 1e-3)
    print("while", its2, repr(sol2.sum()))
