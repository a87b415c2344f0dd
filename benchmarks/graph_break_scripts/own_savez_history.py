import os
import tempfile
import numpy as np
ENTRY = "run_and_save"

def run_and_save(u, nsteps, path):
    energy = []
    for step in range(nsteps):
        u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        energy.append(np.sum(u ** 2))
    np.savez(path, energy=np.array(energy), u=u)
    return u

def make_inputs(size="small"):
    return dict(u=np.sin(np.linspace(0.0, np.pi, 10)), nsteps=6,
                path=os.path.join(tempfile.gettempdir(), "own_savez_history.npz"))
