import numpy as np
from dataclasses import dataclass

ENTRY = "heat"

@dataclass
class Grid:
    n: int = 24
    length: float = 1.0
    alpha: float = 0.4

    @property
    def dx(self):
        return self.length / (self.n - 1)

def heat(u, nsteps):
    g = Grid(n=u.size)
    dx = g.dx
    for step in range(nsteps):
        u[1:-1] += g.alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u[0] = u[-1] = 0.0
    print(f"{g}: dx {dx:.4f}, peak {u.max():.8f}")
    return u

def make_inputs(size="small"):
    return dict(u=np.exp(-np.linspace(-3.0, 3.0, 24) ** 2), nsteps=60)
