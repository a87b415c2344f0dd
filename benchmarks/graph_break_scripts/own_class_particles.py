import numpy as np
ENTRY = "run"

class Particles:
    def __init__(self, pos, vel, mass):
        self.pos = pos
        self.vel = vel
        self.mass = mass
        self.time = 0.0

    def kinetic(self):
        return 0.5 * float(np.sum(self.mass * self.vel ** 2))

def run(pos, vel, mass, dt, nsteps):
    p = Particles(pos.copy(), vel.copy(), mass)
    k0 = p.kinetic()
    for step in range(nsteps):
        acc = -p.pos / p.mass
        p.vel += dt * acc
        p.pos += dt * p.vel
        p.time += dt
    print(f"t = {p.time:.2f}, kinetic {k0:.6f} -> {p.kinetic():.6f}")
    return p.pos, p.vel

def make_inputs(size="small"):
    n = 6
    return dict(pos=np.linspace(-1.0, 1.0, n), vel=np.zeros(n), mass=np.linspace(1.0, 2.0, n), dt=0.01, nsteps=300)
