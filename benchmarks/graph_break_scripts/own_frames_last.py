import numpy as np
ENTRY = "heat"

def heat(u, nsteps, every):
    frames = [u.copy()]
    for n in range(1, nsteps + 1):
        u[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
        if n % every == 0 or n == nsteps:
            frames.append(u.copy())
    return frames

def make_inputs(size="small"):
    u = np.zeros(9); u[4] = 1.0
    return dict(u=u, nsteps=7, every=3)
