import time
import numpy as np
ENTRY = "jacobi"

def jacobi(u, f, maxit, tol):
    t0 = time.time()
    for it in range(maxit):
        new = 0.5 * (u[:-2] + u[2:] + f[1:-1])
        err = np.abs(new - u[1:-1]).max()
        u[1:-1] = new
        if err < tol:
            break
    print(f"{it + 1} sweeps, last change {err:.3e}, {time.time() - t0 >= 0.0}")
    return u

def make_inputs(size="small"):
    n = 16
    return dict(u=np.zeros(n), f=np.full(n, 0.01), maxit=2000, tol=1e-9)
