import time
import numpy as np
ENTRY = "relax"

def relax(u, nsteps, tol):
    start = time.perf_counter()
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        if np.abs(u).max() < tol:
            break
    print(f"{step + 1} steps in {time.perf_counter() - start:.3f} s")
    return u

def make_inputs(size="small"):
    u = np.zeros(10); u[-1] = 1.0
    return dict(u=u, nsteps=8, tol=1e-12)
