"""Newton-Raphson on a small nonlinear system (three coupled equilibrium equations): the residual
written component by component into a preallocated vector, the analytic Jacobian filled by a loop
over rows (`J[i, :] = ...`) and columns, `np.linalg.solve`, a backtracking line search halving
`lam` in a `while`, convergence by `break`, iterations and norms printed, and a Python list of
(iteration, norm) tuples returned with the root.
"""
import numpy as np

K = np.array([2.0, 0.5, 1.5])
TOTAL = np.array([1.0, 2.0])


def residual(x, F):
    a, b, c = x[0], x[1], x[2]
    F[0] = c - K[0] * a * b
    F[1] = a + c - TOTAL[0]
    F[2] = b + c + K[1] * b * b - TOTAL[1]
    return F


def jacobian(x, J):
    J[:] = 0.0
    for i in range(3):
        if i == 0:
            J[i, 0] = -K[0] * x[1]
            J[i, 1] = -K[0] * x[0]
            J[i, 2] = 1.0
        elif i == 1:
            J[i, 0] = 1.0
            J[i, 2] = 1.0
        else:
            J[i, 1] = 1.0 + 2.0 * K[1] * x[1]
            J[i, 2] = 1.0
    return J


def newton(x, tol, maxit):
    F = np.zeros(3)
    J = np.zeros((3, 3))
    log = []
    for it in range(maxit):
        residual(x, F)
        norm = np.linalg.norm(F)
        log.append((it, float(norm)))
        print(f"it {it}: |F| = {norm:.3e}")
        if norm < tol:
            break
        jacobian(x, J)
        dx = np.linalg.solve(J, -F)
        lam = 1.0
        trial = x + lam * dx
        while np.linalg.norm(residual(trial, np.zeros(3))) > (1 - 0.5 * lam) * norm and lam > 1e-4:
            lam *= 0.5
            trial = x + lam * dx
        x[:] = trial
    return x, log


CHECKS = {
    "newton": lambda: (np.array([0.5, 0.5, 0.2]), 1e-12, 30),
    "newton#far": lambda: (np.array([5.0, -3.0, 4.0]), 1e-10, 40),
    "jacobian": lambda: (np.array([0.3, 0.7, 0.1]), np.ones((3, 3))),
}

if __name__ == "__main__":
    x, log = newton(np.array([0.5, 0.5, 0.2]), 1e-12, 30)
    print(repr(x), log[-1][0], len(log))
