import numpy as np
ENTRY = "reaction"

def reaction(u, nsteps, dt):
    for step in range(nsteps):
        u += dt * u * (1.0 - u)
        assert np.isfinite(u).all()
        assert np.all(np.isfinite(u)), "solution blew up"
    return u

def make_inputs(size="small"):
    return dict(u=np.linspace(0.1, 0.9, 8), nsteps=10, dt=0.1)
