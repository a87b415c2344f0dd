import numpy as np
ENTRY = "jacobi"

def jacobi(u, tol, maxit):
    for it in range(maxit):
        new = u.copy()
        new[1:-1] = 0.5 * (u[:-2] + u[2:])
        err = np.max(np.abs(new - u))
        u[:] = new
        if err < tol:
            break
    else:
        print("no convergence after", maxit)
    return u, it

def make_inputs(size="small"):
    return dict(u=np.concatenate([[1.0], np.zeros(6), [0.0]]), tol=1e-3, maxit=30)
