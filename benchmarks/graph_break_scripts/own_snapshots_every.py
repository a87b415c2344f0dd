import numpy as np
ENTRY = "heat_history"

def heat_history(u, nsteps, every):
    snaps = []
    energy = []
    for step in range(nsteps):
        u[1:-1] += 0.2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        energy.append(float(np.sum(u * u)))
        if step % every == 0:
            snaps.append(u.copy())
            print(f"step {step}: E = {energy[-1]:.6f}")
    snaps = np.array(snaps)
    energy = np.asarray(energy)
    print(snaps.shape, energy.shape, repr(snaps.sum()))
    return snaps, energy.max()

def make_inputs(size="small"):
    u = np.zeros(16); u[8] = 1.0
    return dict(u=u, nsteps=12, every=5)
