"""A small D2Q9 lattice Boltzmann channel: streaming by `np.roll` into a second buffer, then
`f, ftmp = ftmp, f`; BGK collision in place (`f += omega * (feq - f)`); bounce-back on an
obstacle mask by fancy indexing with the opposite directions; density and velocity moments
printed every few steps.
"""
import numpy as np

NX, NY = 16, 10
TAU = 0.8
STEPS = 20
C = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
OPP = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6])


def equilibrium(rho, ux, uy):
    feq = np.zeros((9, NY, NX))
    usq = ux * ux + uy * uy
    for i in range(9):
        cu = C[i, 0] * ux + C[i, 1] * uy
        feq[i] = W[i] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * usq)
    return feq


def obstacle():
    y, x = np.mgrid[0:NY, 0:NX]
    return (x - NX // 4) ** 2 + (y - NY // 2) ** 2 <= 4


def simulate(f, solid, steps):
    ftmp = np.empty_like(f)
    omega = 1.0 / TAU
    for t in range(steps):
        for i in range(9):
            ftmp[i] = np.roll(np.roll(f[i], C[i, 0], axis=1), C[i, 1], axis=0)
        f, ftmp = ftmp, f
        bounced = f[:, solid]
        f[:, solid] = bounced[OPP, :]
        rho = f.sum(axis=0)
        ux = (f * C[:, 0, None, None]).sum(axis=0) / rho
        uy = (f * C[:, 1, None, None]).sum(axis=0) / rho
        ux[:, 0] += 0.01
        f += omega * (equilibrium(rho, ux, uy) - f)
        if t % 5 == 0:
            print("t", t, repr(float(rho.mean())), repr(float(ux.max())))
    return f, ftmp


def make_inputs(size="small"):
    rho = np.ones((NY, NX))
    ux = np.full((NY, NX), 0.02)
    return (equilibrium(rho, ux, np.zeros((NY, NX))), obstacle(), STEPS)


CHECKS = {"simulate": make_inputs, "simulate#odd": lambda: make_inputs()[:2] + (7,)}

if __name__ == "__main__":
    f0, solid, steps = make_inputs()
    f, ftmp = simulate(f0, solid, steps)
    print(repr(f.sum()), repr(ftmp.sum()), f is f0, ftmp is f0, repr(f0.sum()))
