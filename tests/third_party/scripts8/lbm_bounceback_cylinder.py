"""Lattice Boltzmann D2Q9 channel flow past a square obstacle: BGK collision written into
`f` in place (`f += omega * (feq - f)`), streaming by `np.roll` of each population into a
second buffer and the swap `f, f_new = f_new, f`, full-way bounce-back on a boolean solid mask
(`f[:, solid] = f[OPP][:, solid]`), a body force added to the x populations, the mean velocity
printed every N steps and a list of snapshots of the speed field.
"""
import numpy as np

NX, NY = 24, 12
C = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
OPP = [0, 3, 4, 1, 2, 7, 8, 5, 6]


def equilibrium(rho, ux, uy, feq):
    usq = ux * ux + uy * uy
    for k in range(9):
        cu = C[k, 0] * ux + C[k, 1] * uy
        feq[k] = W[k] * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)
    return feq


def macroscopic(f):
    rho = f.sum(axis=0)
    ux = (f[1] + f[5] + f[8] - f[3] - f[6] - f[7]) / rho
    uy = (f[2] + f[5] + f[6] - f[4] - f[7] - f[8]) / rho
    return rho, ux, uy


def simulate(f, solid, tau, force, nsteps, every):
    omega = 1.0 / tau
    feq = np.empty_like(f)
    f_new = np.empty_like(f)
    snaps = []
    for step in range(nsteps):
        rho, ux, uy = macroscopic(f)
        ux[solid] = 0.0
        uy[solid] = 0.0
        equilibrium(rho, ux, uy, feq)
        f += omega * (feq - f)
        f[[1, 5, 8]] += force * W[[1, 5, 8]][:, None, None]
        f[[3, 6, 7]] -= force * W[[3, 6, 7]][:, None, None]
        for k in range(9):
            f_new[k] = np.roll(f[k], (C[k, 0], C[k, 1]), axis=(0, 1))
        f_new[:, solid] = f_new[OPP][:, solid]
        f, f_new = f_new, f
        if step % every == 0:
            speed = np.sqrt(ux ** 2 + uy ** 2)
            snaps.append(speed.copy())
            print("step", step, "mean ux", round(float(ux[~solid].mean()), 10))
    return f, snaps


def make_inputs():
    solid = np.zeros((NX, NY), dtype=bool)
    solid[:, 0] = True
    solid[:, -1] = True
    solid[8:11, 4:7] = True
    rho = np.ones((NX, NY))
    f = np.empty((9, NX, NY))
    equilibrium(rho, np.zeros((NX, NY)), np.zeros((NX, NY)), f)
    return f, solid


CHECKS = {
    "simulate": lambda: (*make_inputs(), 0.8, 1e-4, 30, 10),
    "equilibrium": lambda: (np.ones((3, 4)), np.full((3, 4), 0.1), np.zeros((3, 4)), np.zeros((9, 3, 4))),
}

if __name__ == "__main__":
    f, solid = make_inputs()
    f_final, snaps = simulate(f, solid, 0.7, 2e-4, 60, 20)
    rho, ux, uy = macroscopic(f_final)
    print(len(snaps), repr(snaps[-1].max()), repr(rho.sum()), repr(ux[12, 6]))
    print("caller's f moved:", bool(np.abs(f - f_final).max() > 0))
