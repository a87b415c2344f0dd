import numpy as np
ENTRY = "kicks"

def kicks(x, nsteps):
    np.random.seed(0)
    for step in range(nsteps):
        i = np.random.randint(0, x.size)
        x[i] += np.random.uniform(-1.0, 1.0)
        x *= 1.0 + 0.01 * np.random.normal(size=x.size)
    return x

def make_inputs(size="small"):
    return dict(x=np.zeros(6), nsteps=8)
