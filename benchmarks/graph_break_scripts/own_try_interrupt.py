import numpy as np
ENTRY = "simulate"

def simulate(u, nsteps):
    done = 0
    try:
        for step in range(nsteps):
            u[1:-1] += 0.2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
            done += 1
    except KeyboardInterrupt:
        print(f"interrupted after {done} steps")
    print(f"energy {np.sum(u * u):.10f}")
    return u

def make_inputs(size="small"):
    return dict(u=np.exp(-np.linspace(-2.0, 2.0, 40) ** 2), nsteps=200)
