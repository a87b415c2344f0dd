import numpy as np
ENTRY = "advance"

def advance(u, nsteps, c, tol, maxit):
    for step in range(nsteps):
        u[1:] -= c * (u[1:] - u[:-1])
        if not np.isfinite(u).all():
            raise RuntimeError(f"solution blew up at step {step}")
    it = 0
    while np.abs(u - u.mean()).max() > tol:
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        it += 1
        if it >= maxit:
            raise RuntimeError(f"smoothing did not converge in {it} sweeps")
    print(f"smoothed in {it} sweeps")
    return u

def make_inputs(size="small"):
    return dict(u=np.exp(-np.linspace(-2, 2, 12) ** 2), nsteps=6, c=0.4, tol=0.5, maxit=400)
