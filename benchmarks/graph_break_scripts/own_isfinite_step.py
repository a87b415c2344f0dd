import numpy as np
ENTRY = "explicit_heat"

def explicit_heat(u, nsteps, r):
    for step in range(nsteps):
        u[1:-1] += r * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        assert np.isfinite(u).all(), f"solution blew up at step {step}"
        if step % 4 == 0:
            print(f"step {step:4d}  max {np.abs(u).max():.6e}")
    return u

def make_inputs(size="small"):
    return dict(u=np.sin(np.linspace(0.0, np.pi, 16)), nsteps=10, r=0.4)
