import numpy as np
ENTRY = "newton"

def residual(x):
    return np.array([x[0] ** 2 + x[1] ** 2 - 4.0, x[0] * x[1] + 1.0])

def jacobian(x):
    return np.array([[2.0 * x[0], 2.0 * x[1]], [x[1], x[0]]])

def solve2(J, F):
    det = J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]
    return np.array([J[1, 1] * F[0] - J[0, 1] * F[1], J[0, 0] * F[1] - J[1, 0] * F[0]]) / det

def newton(x, tol, maxit):
    F = residual(x)
    norms = []
    it = 0
    while np.linalg.norm(F) > tol and it < maxit:
        x -= solve2(jacobian(x), F)
        F = residual(x)
        norms.append(np.linalg.norm(F))
        it += 1
    return x, norms

def make_inputs(size="small"):
    return dict(x=np.array([1.0, -1.7]), tol=1e-12, maxit=50)
