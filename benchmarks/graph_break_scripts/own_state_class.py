import numpy as np
ENTRY = "orbit"

class Body:
    """A particle state, as a script keeps it."""
    def __init__(self, pos, vel):
        self.pos = pos
        self.vel = vel
        self.t = 0.0
        self.steps = 0

    def energy(self):
        r = np.sqrt(np.sum(self.pos ** 2))
        return 0.5 * float(np.sum(self.vel ** 2)) - 1.0 / r

def orbit(pos, vel, dt, nsteps):
    b = Body(pos.copy(), vel.copy())
    e0 = b.energy()
    for step in range(nsteps):
        r3 = np.sum(b.pos ** 2) ** 1.5
        b.vel -= 0.5 * dt * b.pos / r3
        b.pos += dt * b.vel
        r3 = np.sum(b.pos ** 2) ** 1.5
        b.vel -= 0.5 * dt * b.pos / r3
        b.t += dt
        b.steps += 1
    print(f"t = {b.t:.3f} after {b.steps} steps, energy drift {b.energy() - e0:.3e}")
    return b.pos, b.vel

def make_inputs(size="small"):
    return dict(pos=np.array([1.0, 0.0]), vel=np.array([0.0, 1.1]), dt=0.01, nsteps=500)
