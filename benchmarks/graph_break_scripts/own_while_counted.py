import numpy as np
ENTRY = "jacobi_counted"
MAXIT = 400

def jacobi_counted(u, tol):
    res = np.zeros(MAXIT)
    n = 0
    err = tol + 1.0
    while err > tol and n < MAXIT:
        new = 0.5 * (u[2:] + u[:-2])
        err = np.max(np.abs(new - u[1:-1]))
        u[1:-1] = new
        res[n] = err
        n += 1
    return res, n

def make_inputs(size="small"):
    u = np.zeros(12); u[-1] = 1.0
    return dict(u=u, tol=1e-3)
