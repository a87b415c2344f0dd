import numpy as np
ENTRY = "noisy_relax"

def noisy_relax(u, nsteps, sigma):
    np.random.seed(7)
    kicks = np.random.normal(0.0, sigma, size=(nsteps, u.size))
    total = 0.0
    for t in range(nsteps):
        u += kicks[t]
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        total += float(np.abs(u).sum())
    return u, total

def make_inputs(size="small"):
    return dict(u=np.zeros(10), nsteps=5, sigma=0.1)
