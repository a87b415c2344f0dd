"""2-D incompressible Navier-Stokes in vorticity-streamfunction form on a lid-driven cavity:
the Poisson equation for psi solved by Jacobi sweeps with a `while` that breaks on the residual
(a copy `psi_old = psi.copy()` each sweep), wall vorticity from Thom's formula written into the
edge rows, the vorticity advanced by central differences with `w[1:-1, 1:-1] += dt * (...)`,
a dict of parameters, and the max residual/iteration counts printed every few steps.
"""
import numpy as np

PARAMS = {"n": 17, "re": 100.0, "dt": 0.002, "lid": 1.0, "tol": 1e-6, "maxit": 400}


def poisson(psi, w, h, tol, maxit):
    it = 0
    res = 1.0
    while res > tol and it < maxit:
        psi_old = psi.copy()
        psi[1:-1, 1:-1] = 0.25 * (psi_old[2:, 1:-1] + psi_old[:-2, 1:-1]
                                  + psi_old[1:-1, 2:] + psi_old[1:-1, :-2] + h * h * w[1:-1, 1:-1])
        res = np.abs(psi - psi_old).max()
        it += 1
    return it, res


def wall_vorticity(w, psi, h, lid):
    w[0, :] = -2.0 * psi[1, :] / h ** 2
    w[-1, :] = -2.0 * psi[-2, :] / h ** 2
    w[:, 0] = -2.0 * psi[:, 1] / h ** 2
    w[:, -1] = -2.0 * psi[:, -2] / h ** 2 - 2.0 * lid / h


def step(w, psi, h, p):
    dpy = (psi[1:-1, 2:] - psi[1:-1, :-2]) / (2 * h)
    dpx = (psi[2:, 1:-1] - psi[:-2, 1:-1]) / (2 * h)
    dwx = (w[2:, 1:-1] - w[:-2, 1:-1]) / (2 * h)
    dwy = (w[1:-1, 2:] - w[1:-1, :-2]) / (2 * h)
    lap = (w[2:, 1:-1] + w[:-2, 1:-1] + w[1:-1, 2:] + w[1:-1, :-2] - 4 * w[1:-1, 1:-1]) / h ** 2
    w[1:-1, 1:-1] += p["dt"] * (-(dpy * dwx - dpx * dwy) + lap / p["re"])


def run(p, nsteps, every):
    n = p["n"]
    h = 1.0 / (n - 1)
    w = np.zeros((n, n))
    psi = np.zeros((n, n))
    its = []
    for s in range(nsteps):
        it, res = poisson(psi, w, h, p["tol"], p["maxit"])
        wall_vorticity(w, psi, h, p["lid"])
        step(w, psi, h, p)
        its.append(it)
        if s % every == 0:
            print("step", s, "iterations", it, "residual", float(res))
    return w, psi, its


CHECKS = {
    "run": lambda: (dict(PARAMS), 6, 2),
    "poisson": lambda: (np.zeros((9, 9)), np.ones((9, 9)), 0.125, 1e-5, 200),
}

if __name__ == "__main__":
    w, psi, its = run(dict(PARAMS), 10, 3)
    print(repr(psi.min()), repr(w[8, -1]), its)
