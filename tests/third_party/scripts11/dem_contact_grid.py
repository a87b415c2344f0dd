"""2-D discrete element method: discs in a box under gravity, linear spring-dashpot contacts
found through a neighbour grid (cell index by floor division, particles sorted by cell with a
stable argsort, cell starts by np.searchsorted), contact forces accumulated pair by pair into a
force array (`f[i] += fn; f[j] -= fn`), walls by masks, semi-implicit Euler, the contact count
an int kept in a Python int, the kinetic energy printed every N steps and kept in a history
array, and a helper that writes its argument (wall forces added to f).
"""
import numpy as np

N = 24
RADIUS = 0.05
BOX = 1.0
KN = 2.0e3
GN = 4.0
G = -9.81
DT = 2.0e-4
NC = int(BOX / (2 * RADIUS))
PRINT_EVERY = 25

rng = np.random.default_rng(11)
X0 = np.column_stack([0.1 + 0.8 * rng.random(N), 0.2 + 0.7 * rng.random(N)])
V0 = 0.3 * rng.standard_normal((N, 2))


def cell_of(x):
    c = np.floor(x / (BOX / NC)).astype(np.int64)
    np.clip(c, 0, NC - 1, out=c)
    return c[:, 0] * NC + c[:, 1]


def wall_forces(x, v, f):
    low = x - RADIUS
    high = x + RADIUS - BOX
    hit_lo = low < 0
    hit_hi = high > 0
    f[hit_lo] += -KN * low[hit_lo] - GN * v[hit_lo]
    f[hit_hi] += -KN * high[hit_hi] - GN * v[hit_hi]


def contact_forces(x, v, f):
    cells = cell_of(x)
    order = np.argsort(cells, kind="stable")
    sorted_cells = cells[order]
    contacts = 0
    for a in range(x.shape[0]):
        i = order[a]
        ci, cj = divmod(int(sorted_cells[a]), NC)
        for di in range(-1, 2):
            for dj in range(-1, 2):
                ni, nj = ci + di, cj + dj
                if ni < 0 or nj < 0 or ni >= NC or nj >= NC:
                    continue
                key = ni * NC + nj
                lo = np.searchsorted(sorted_cells, key, side="left")
                hi = np.searchsorted(sorted_cells, key, side="right")
                for b in range(lo, hi):
                    j = order[b]
                    if j <= i:
                        continue
                    d = x[j] - x[i]
                    dist = np.sqrt(d @ d)
                    overlap = 2 * RADIUS - dist
                    if overlap > 0:
                        nrm = d / dist
                        vn = (v[j] - v[i]) @ nrm
                        fn = (KN * overlap - GN * vn) * nrm
                        f[i] -= fn
                        f[j] += fn
                        contacts += 1
    return contacts


def occupied_neighbours(cells, counts):
    """How many of the 3x3 cells around each particle's cell hold a particle (the offsets
    walked over a tuple, as the first version of the contact loop did)."""
    out = np.zeros(cells.shape[0], dtype=np.int64)
    for a in range(cells.shape[0]):
        ci, cj = divmod(int(cells[a]), NC)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                ni, nj = ci + di, cj + dj
                if ni < 0 or nj < 0 or ni >= NC or nj >= NC:
                    continue
                if counts[ni * NC + nj] > 0:
                    out[a] += 1
    return out


def simulate(x, v, nsteps):
    f = np.zeros_like(x)
    ke = np.zeros(nsteps)
    total_contacts = 0
    for n in range(nsteps):
        f.fill(0.0)
        f[:, 1] += G
        total_contacts += contact_forces(x, v, f)
        wall_forces(x, v, f)
        v += DT * f
        x += DT * v
        ke[n] = 0.5 * np.sum(v * v)
        if n % PRINT_EVERY == 0:
            print("step", n, "ke", repr(float(ke[n])), "contacts", total_contacts)
    return ke, total_contacts


def packed(n=6):
    x = np.array([[0.1 + 0.09 * (k % 3), 0.1 + 0.09 * (k // 3)] for k in range(n)])
    return x, np.zeros_like(x)


CHECKS = {
    "simulate": lambda: (X0.copy(), V0.copy(), 30),
    "simulate#packed": lambda: (*packed(), 20),
    "contact_forces": lambda: (*packed(9), np.zeros((9, 2))),
    "wall_forces": lambda: (np.array([[0.02, 0.5], [0.99, 0.97], [0.5, 0.5]]), np.ones((3, 2)), np.zeros((3, 2))),
    "occupied_neighbours": lambda: (cell_of(X0), np.bincount(cell_of(X0), minlength=NC * NC)),
    "cell_of": lambda: (np.array([[0.0, 0.0], [0.55, 0.31], [1.2, -0.1], [0.999, 0.1]]),),
}

if __name__ == "__main__":
    x, v = X0.copy(), V0.copy()
    ke, contacts = simulate(x, v, 100)
    print("final ke", repr(float(ke[-1])), "contacts", contacts)
    print("mean height", repr(float(x[:, 1].mean())))
    print(cell_of(x))
    print(occupied_neighbours(cell_of(x), np.bincount(cell_of(x), minlength=NC * NC)))
