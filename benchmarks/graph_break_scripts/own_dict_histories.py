import numpy as np
ENTRY = "relax"

def relax(u, nsteps):
    hist = {"mean": [], "max": []}
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
        hist["mean"].append(float(u.mean()))
        hist["max"].append(float(u.max()))
    return u, hist

def make_inputs(size="small"):
    return dict(u=np.linspace(0.0, 1.0, 12) ** 2, nsteps=8)
