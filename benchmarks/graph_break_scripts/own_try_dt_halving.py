import numpy as np
ENTRY = "integrate"

def rhs(u):
    return u * u - 0.5 * u

def integrate(u, dt, nsteps):
    rejected = 0
    for step in range(nsteps):
        try:
            with np.errstate(over="raise", invalid="raise"):
                trial = u + dt * rhs(u)
        except FloatingPointError:
            dt /= 2
            rejected += 1
            continue
        u[:] = trial
        u[1:-1] = 0.25 * u[:-2] + 0.5 * u[1:-1] + 0.25 * u[2:]
    print(f"{rejected} steps rejected, dt = {dt:.3e}")
    return u, dt

def make_inputs(size="small"):
    return dict(u=np.linspace(0.0, 1e154, 12), dt=4.0, nsteps=30)
