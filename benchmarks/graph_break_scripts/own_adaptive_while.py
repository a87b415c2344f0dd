import numpy as np
ENTRY = "burgers"

def burgers(u, dx, t_end, cfl):
    t = 0.0
    nstep = 0
    while t < t_end:
        dt = min(cfl * dx / np.abs(u).max(), t_end - t)
        u[1:] -= dt / dx * u[1:] * (u[1:] - u[:-1])
        t += dt
        nstep += 1
    print(f"reached t={t:.4f} in {nstep} steps")
    return u, nstep

def make_inputs(size="small"):
    x = np.linspace(0.0, 1.0, 20)
    return dict(u=1.0 + 0.5 * np.exp(-50 * (x - 0.3) ** 2), dx=x[1] - x[0], t_end=0.05, cfl=0.5)
