import numpy as np
ENTRY = "heat2d"

def inner(a):
    return a[1:-1, 1:-1]

def top(a):
    return a[0, :]

def heat2d(T, nsteps, alpha):
    for _ in range(nsteps):
        lap = T[2:, 1:-1] + T[:-2, 1:-1] + T[1:-1, 2:] + T[1:-1, :-2] - 4.0 * T[1:-1, 1:-1]
        inner(T)[...] += alpha * lap
        edge = top(T)
        edge[:] = 1.0
        np.clip(inner(T), 0.0, 0.9, out=inner(T))
    return T.mean()

def make_inputs(size="small"):
    return dict(T=np.zeros((7, 8)), nsteps=5, alpha=0.2)
