"""SPH density with neighbour lists from a cell sort (np.argsort, np.searchsorted).

Particles in a periodic unit square are binned into cells with np.floor; the particles are
sorted by cell id (np.argsort) and each cell's range in the sorted order found with
np.searchsorted. The density sums a cubic-spline kernel over the 3 x 3 neighbouring cells,
the pressure follows an equation of state, and a few explicit steps move the particles with
a pressure gradient force and wrap them with `%`.
"""
import numpy as np

ENTRY = "run"
H = 0.1
NCELL = 10          # 1 / H cells per side
K_EOS = 2.0
RHO0 = 1.0


def kernel(r, h):
    q = r / h
    sigma = 10.0 / (7.0 * np.pi * h * h)
    w = np.where(q < 1.0, 1.0 - 1.5 * q**2 + 0.75 * q**3,
                 np.where(q < 2.0, 0.25 * (2.0 - q) ** 3, 0.0))
    return sigma * w


def build_cells(pos):
    cx = np.floor(pos[:, 0] * NCELL).astype(np.int64) % NCELL
    cy = np.floor(pos[:, 1] * NCELL).astype(np.int64) % NCELL
    cell = cx * NCELL + cy
    order = np.argsort(cell, kind="stable")
    sorted_cells = cell[order]
    starts = np.searchsorted(sorted_cells, np.arange(NCELL * NCELL), side="left")
    ends = np.searchsorted(sorted_cells, np.arange(NCELL * NCELL), side="right")
    return cx, cy, order, starts, ends


def density(pos, mass):
    n = pos.shape[0]
    rho = np.zeros(n)
    cx, cy, order, starts, ends = build_cells(pos)
    for i in range(n):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = ((cx[i] + dx) % NCELL) * NCELL + (cy[i] + dy) % NCELL
                js = order[starts[c]:ends[c]]
                d = pos[js] - pos[i]
                d -= np.round(d)                 # minimum image, unit box
                r = np.sqrt(np.sum(d * d, axis=1))
                rho[i] += np.sum(mass[js] * kernel(r, H))
    return rho


def density_loops(pos, mass):
    """The same sum with an explicit loop over each cell's range of the sorted order."""
    n = pos.shape[0]
    rho = np.zeros(n)
    cx, cy, order, starts, ends = build_cells(pos)
    for i in range(n):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = ((cx[i] + dx) % NCELL) * NCELL + (cy[i] + dy) % NCELL
                for k in range(starts[c], ends[c]):
                    j = order[k]
                    d = pos[j] - pos[i]
                    d -= np.round(d)
                    r = np.sqrt(d[0] ** 2 + d[1] ** 2)
                    rho[i] += mass[j] * kernel(r, H)
    return rho


def run(pos, vel, mass, dt, nsteps):
    for step in range(nsteps):
        rho = density(pos, mass)
        p = K_EOS * (rho - RHO0)
        # crude pressure force: push away from the local mean position, weighted by p
        centre = np.mean(pos, axis=0)
        acc = (pos - centre) * p[:, None] / rho[:, None]
        vel += dt * acc
        pos += dt * vel
        pos %= 1.0
        print(step, repr(float(rho.max())), repr(float(rho.min())))
    return rho


def make_inputs(size="small"):
    n = 12 if size == "small" else 60
    rng = np.random.default_rng(3)
    pos = rng.random((n, 2))
    vel = 0.1 * rng.standard_normal((n, 2))
    mass = np.full(n, 1.0 / n)
    return dict(pos=pos, vel=vel, mass=mass, dt=0.01, nsteps=3)


def _density_inputs():
    inputs = make_inputs("small")
    return dict(pos=inputs["pos"], mass=inputs["mass"])


CHECKS = {"run": lambda: make_inputs("small"), "density": _density_inputs,
          "density_loops": _density_inputs}

if __name__ == "__main__":
    inputs = make_inputs("large")
    rho = run(**inputs)
    print(repr(rho.sum()), repr(inputs["pos"].sum()), repr(inputs["vel"].sum()))
    loops = density_loops(inputs["pos"], inputs["mass"])
    print(repr(loops.sum()), repr(float(np.abs(loops - density(inputs["pos"], inputs["mass"])).max())))
