import numpy as np
ENTRY = "langevin"

def langevin(x, nsteps, dt, gamma, rng):
    for step in range(nsteps):
        noise = rng.normal(0.0, 1.0, size=x.shape)
        x += -gamma * x * dt + np.sqrt(2.0 * gamma * dt) * noise
    return x

def make_inputs(size="small"):
    rng = np.random.default_rng(12)
    return dict(x=np.ones(5), nsteps=6, dt=0.01, gamma=0.5, rng=rng)
