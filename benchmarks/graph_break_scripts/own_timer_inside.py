import time
import numpy as np
ENTRY = "timed_relax"

def timed_relax(u, nsteps):
    t0 = time.time()
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
    elapsed = time.time() - t0
    rate = nsteps / max(elapsed, 1e-9)
    return u
def make_inputs(size="small"):
    u = np.zeros(10); u[-1] = 1.0
    return dict(u=u, nsteps=8)
