import numpy as np
ENTRY = "leapfrog"

def leapfrog(x, v, dt, nsteps):
    e0 = 0.5 * np.sum(v**2 + x**2)
    for step in range(nsteps):
        v -= 0.5 * dt * x
        x += dt * v
        v -= 0.5 * dt * x
        e = 0.5 * np.sum(v**2 + x**2)
        assert abs(e - e0) < 1e-2 * e0, f"energy drift at step {step}: {e}"
    return x, v

def make_inputs(size="small"):
    return dict(x=np.array([1.0, 0.5]), v=np.array([0.0, 0.2]), dt=0.05, nsteps=8)
