import numpy as np
ENTRY = "oscillators"

def oscillators(x, v, nsteps, dt):
    E = []
    for step in range(nsteps):
        v -= dt * x
        x += dt * v
        E.append(0.5 * np.sum(v ** 2 + x ** 2))
    E = np.array(E)
    return x, v, E

def make_inputs(size="small"):
    return dict(x=np.linspace(-1.0, 1.0, 6), v=np.zeros(6), nsteps=9, dt=0.1)
