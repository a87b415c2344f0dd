import numpy as np
ENTRY = "advect"

def advect(u, nsteps, c):
    report = max(nsteps // 4, 1)
    done = 0
    for step in range(nsteps):
        u[1:] -= c * (u[1:] - u[:-1])
        done += 1
        if done % report == 0:
            print(f"\r{100 * done // nsteps:3d}% ({done}/{nsteps})", end="", flush=True)
    print()
    return u

def make_inputs(size="small"):
    return dict(u=np.exp(-np.linspace(-2, 2, 16) ** 2), nsteps=10, c=0.4)
