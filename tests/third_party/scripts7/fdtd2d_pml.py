"""2-D FDTD (TM mode) with a graded absorbing layer (PML-like conductivity profiles): Ez, Hx, Hy
on a Yee grid updated through interior views (`ez = Ez[1:-1, 1:-1]` written in place), loss
coefficients precomputed as float32 then mixed with float64 fields, a soft Gaussian source added
at a point, and the field energy logged every N steps into a preallocated array.
"""
import numpy as np

NX, NY = 40, 36
NPML = 8
COURANT = 0.5


def profiles(n, npml):
    s = np.zeros(n, dtype=np.float32)
    for k in range(npml):
        g = ((npml - k) / npml) ** 3
        s[k] = g
        s[n - 1 - k] = g
    return s


def step(Ez, Hx, Hy, ca, cb, da, db, t, src):
    Hx[:, :-1] = da[:, :-1] * Hx[:, :-1] - db[:, :-1] * (Ez[:, 1:] - Ez[:, :-1])
    Hy[:-1, :] = da[:-1, :] * Hy[:-1, :] + db[:-1, :] * (Ez[1:, :] - Ez[:-1, :])
    ez = Ez[1:-1, 1:-1]
    curl = (Hy[1:-1, 1:-1] - Hy[:-2, 1:-1]) - (Hx[1:-1, 1:-1] - Hx[1:-1, :-2])
    ez *= ca[1:-1, 1:-1]
    ez += cb[1:-1, 1:-1] * curl
    Ez[src] += np.exp(-((t - 20.0) / 6.0) ** 2)


def run(nsteps, every):
    sx = profiles(NX, NPML)
    sy = profiles(NY, NPML)
    sigma = 0.4 * (sx[:, None] + sy[None, :])
    ca = (1.0 - sigma) / (1.0 + sigma)
    cb = COURANT / (1.0 + sigma)
    da = ca.copy()
    db = cb.copy()
    Ez = np.zeros((NX, NY))
    Hx = np.zeros((NX, NY))
    Hy = np.zeros((NX, NY))
    energy = np.zeros(nsteps // every + 1)
    for t in range(nsteps):
        step(Ez, Hx, Hy, ca, cb, da, db, float(t), (NX // 2, NY // 3))
        if t % every == 0:
            energy[t // every] = np.sum(Ez ** 2) + np.sum(Hx ** 2 + Hy ** 2)
            print("t", t, repr(float(energy[t // every])))
    return Ez, Hx, Hy, energy, ca.dtype


CHECKS = {
    "run": lambda: (60, 15),
    "step": lambda: (np.random.default_rng(0).normal(size=(NX, NY)), np.zeros((NX, NY)), np.ones((NX, NY)),
                     np.full((NX, NY), 0.9, np.float32), np.full((NX, NY), 0.5, np.float32),
                     np.full((NX, NY), 0.9, np.float32), np.full((NX, NY), 0.5, np.float32), 19.0, (3, 4)),
}

if __name__ == "__main__":
    Ez, Hx, Hy, energy, dt = run(120, 20)
    print(repr(Ez.max()), repr(Hx.min()), repr(energy.tolist()), dt)
