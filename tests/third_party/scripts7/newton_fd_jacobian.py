"""Newton's method for a nonlinear system with a finite-difference Jacobian built by perturbing
x in place (`x[j] += h; f1 = F(x); x[j] -= h`: the restore leaves x off by rounding), a second
version that copies (`xp = x.copy()`), a damped step halving while the residual norm grows
(`while ... and lam > 1e-4`), `np.linalg.solve`, and iterations stopped by `break` on tol.
"""
import numpy as np


def F(x):
    f = np.empty_like(x)
    f[0] = x[0] ** 2 + x[1] ** 2 - 4.0
    f[1] = np.exp(x[0]) + x[1] - 1.0
    f[2] = x[2] ** 3 - x[0] * x[1] - 0.5
    return f


def jac_inplace(x, h):
    n = x.size
    J = np.empty((n, n))
    f0 = F(x)
    for j in range(n):
        x[j] += h
        J[:, j] = (F(x) - f0) / h
        x[j] -= h
    return J


def jac_copy(x, h):
    n = x.size
    J = np.empty((n, n))
    f0 = F(x)
    for j in range(n):
        xp = x.copy()
        xp[j] += h
        J[:, j] = (F(xp) - f0) / h
    return J


def newton(x, tol, maxit, inplace):
    norms = np.full(maxit, np.nan)
    k = 0
    for k in range(maxit):
        f = F(x)
        norms[k] = np.linalg.norm(f)
        if norms[k] < tol:
            break
        J = jac_inplace(x, 1e-5) if inplace else jac_copy(x, 1e-5)
        dx = np.linalg.solve(J, -f)
        lam = 1.0
        while np.linalg.norm(F(x + lam * dx)) > norms[k] and lam > 1e-4:
            lam *= 0.5
        x += lam * dx
    return x, k, norms


CHECKS = {"newton": lambda: (np.array([1.0, -1.5, 1.0]), 1e-12, 20, True),
          "newton#copy": lambda: (np.array([1.0, -1.5, 1.0]), 1e-12, 20, False),
          "jac_inplace": lambda: (np.array([0.3, 0.1, 2.0]), 1e-6)}

if __name__ == "__main__":
    x, k, norms = newton(np.array([1.0, -1.5, 1.0]), 1e-12, 20, True)
    y, k2, _ = newton(np.array([1.0, -1.5, 1.0]), 1e-12, 20, False)
    print(repr(x.tolist()), k, repr(norms[0]), k2, repr(np.abs(x - y).max() < 1e-9))
