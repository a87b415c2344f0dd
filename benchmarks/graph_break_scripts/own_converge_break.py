import numpy as np
ENTRY = "jacobi_until"

def jacobi_until(u, tol, maxit):
    it = 0
    for it in range(maxit):
        new = u.copy()
        new[1:-1] = 0.5 * (u[2:] + u[:-2])
        err = np.max(np.abs(new - u))
        u[:] = new
        if err < tol:
            break
    print(f"converged after {it} iterations, err={err:.3e}")
    return u, it

def make_inputs(size="small"):
    u = np.zeros(12); u[-1] = 1.0
    return dict(u=u, tol=1e-3, maxit=500)
