"""Sod's shock tube for the 1-D Euler equations with a first-order Godunov scheme and Roe's
approximate Riemann solver: conserved variables in a (3, n) array, primitive variables by
helpers returning tuples, Roe averages and the entropy-fixed wave speeds, fluxes at the
interfaces written into `F[:, 1:-1]`, transmissive ghost cells (`U[:, 0] = U[:, 1]`), the time
step from the CFL condition with the last step clipped (`dt = min(dt, t_end - t)`) and `break`.
"""
import numpy as np

GAMMA = 1.4


def primitive(U):
    rho = U[0]
    u = U[1] / rho
    p = (GAMMA - 1) * (U[2] - 0.5 * rho * u * u)
    return rho, u, p


def physical_flux(rho, u, p, E):
    return np.array([rho * u, rho * u * u + p, (E + p) * u])


def roe_flux(UL, UR):
    rl, ul, pl = primitive(UL)
    rr, ur, pr = primitive(UR)
    hl = (UL[2] + pl) / rl
    hr = (UR[2] + pr) / rr
    sl, sr = np.sqrt(rl), np.sqrt(rr)
    u = (sl * ul + sr * ur) / (sl + sr)
    hh = (sl * hl + sr * hr) / (sl + sr)
    c = np.sqrt((GAMMA - 1) * (hh - 0.5 * u * u))
    lam = np.abs(np.array([u - c, u, u + c]))
    delta = 0.1 * c
    lam = np.where(lam < delta, (lam ** 2 + delta ** 2) / (2 * delta), lam)
    dr, du, dp = rr - rl, ur - ul, pr - pl
    rho = sl * sr
    a1 = (dp - rho * c * du) / (2 * c * c)
    a2 = dr - dp / (c * c)
    a3 = (dp + rho * c * du) / (2 * c * c)
    K1 = np.array([np.ones_like(u), u - c, hh - u * c])
    K2 = np.array([np.ones_like(u), u, 0.5 * u * u])
    K3 = np.array([np.ones_like(u), u + c, hh + u * c])
    diss = lam[0] * a1 * K1 + lam[1] * a2 * K2 + lam[2] * a3 * K3
    FL = physical_flux(rl, ul, pl, UL[2])
    FR = physical_flux(rr, ur, pr, UR[2])
    return 0.5 * (FL + FR) - 0.5 * diss


def solve(U, dx, t_end, cfl, max_steps):
    t = 0.0
    F = np.zeros((3, U.shape[1] + 1))
    nsteps = 0
    for _ in range(max_steps):
        U[:, 0] = U[:, 1]
        U[:, -1] = U[:, -2]
        rho, u, p = primitive(U)
        smax = (np.abs(u) + np.sqrt(GAMMA * p / rho)).max()
        dt = min(cfl * dx / smax, t_end - t)
        F[:, 1:-1] = roe_flux(U[:, :-1], U[:, 1:])
        U[:, 1:-1] -= dt / dx * (F[:, 2:-1] - F[:, 1:-2])
        t += dt
        nsteps += 1
        if t >= t_end:
            break
    return U, t, nsteps


def sod(n):
    x = (np.arange(n) + 0.5) / n
    rho = np.where(x < 0.5, 1.0, 0.125)
    p = np.where(x < 0.5, 1.0, 0.1)
    return np.array([rho, np.zeros(n), p / (GAMMA - 1)])


CHECKS = {
    "solve": lambda: (sod(40), 1 / 40, 0.1, 0.8, 200),
    "roe_flux": lambda: (sod(6)[:, :-1], sod(6)[:, 1:]),
}

if __name__ == "__main__":
    U, t, nsteps = solve(sod(100), 0.01, 0.2, 0.9, 1000)
    rho, u, p = primitive(U)
    print(nsteps, repr(t), repr(rho[50]), repr(u.max()), repr(p[75]))
