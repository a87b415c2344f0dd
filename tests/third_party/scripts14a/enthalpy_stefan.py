"""Melting of a 1-D slab of ice heated at one end (a Stefan problem) by the enthalpy method, in the
pattern of heat-transfer course codes: the volumetric enthalpy H stored per cell, temperature
recovered from H by three regimes (solid, mushy, liquid) through `np.where`, the liquid
fraction by `np.clip`, conductivity picked per phase and averaged harmonically at the faces,
explicit fluxes written into a preallocated face array handed to a helper, a Dirichlet hot wall
and an insulated far end, the melt front found as the first cell with fraction below a half
(`np.argmax` of a mask, the slab length when none), its position against the Neumann analytic
solution (the root of a transcendental equation by bisection in a `while`), and the history of
the front kept in a growing Python list printed every so many steps.
"""
import math

import numpy as np

RHO = 1000.0
C_S, C_L = 2100.0, 4200.0
K_S, K_L = 2.2, 0.6
LATENT = 334e3
T_MELT = 0.0
T_HOT = 10.0
L_SLAB = 0.1
NXC = 50


def temperature(H):
    """H = 0 at the solid at T_MELT; the mushy range holds the latent heat."""
    solid = RHO * C_S * (H / (RHO * C_S))
    liquid = T_MELT + (H - RHO * LATENT) / (RHO * C_L)
    return np.where(H < 0.0, solid / (RHO * C_S), np.where(H > RHO * LATENT, liquid, T_MELT))


def liquid_fraction(H):
    return np.clip(H / (RHO * LATENT), 0.0, 1.0)


def face_fluxes(T, frac, dx, t_wall, q):
    k = np.where(frac > 0.5, K_L, K_S)
    k_face = 2.0 * k[1:] * k[:-1] / (k[1:] + k[:-1])
    q[1:-1] = -k_face * (T[1:] - T[:-1]) / dx
    q[0] = -k[0] * (T[0] - t_wall) / (0.5 * dx)
    q[-1] = 0.0


def front_position(frac, dx):
    melted = frac < 0.5
    if not melted.any():
        return NXC * dx
    return float(np.argmax(melted)) * dx


def neumann_lambda(stefan, tol=1e-12):
    """lam exp(lam^2) erf(lam) = St / sqrt(pi), by bisection."""
    lo, hi = 0.0, 2.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        g = mid * math.exp(mid * mid) * math.erf(mid) - stefan / math.sqrt(math.pi)
        if g > 0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def melt(H, dt, steps, every, t_wall=T_HOT):
    dx = L_SLAB / NXC
    q = np.zeros(NXC + 1)
    fronts = []
    for n in range(1, steps + 1):
        T = temperature(H)
        frac = liquid_fraction(H)
        face_fluxes(T, frac, dx, t_wall, q)
        H -= dt * (q[1:] - q[:-1]) / dx
        if n % every == 0:
            x = front_position(liquid_fraction(H), dx)
            fronts.append(x)
            print("t", n * dt, "front", "%.4f" % x, "max T", "%.6f" % temperature(H).max())
    return np.array(fronts)


CHECKS = {
    "temperature": lambda: (np.array([-4.2e6, -0.0, 0.0, 1.0e8, 3.34e8, 3.5e8, 4.0e8]),),
    "liquid_fraction": lambda: (np.array([-1.0, 0.0, 1.67e8, 3.34e8, 9e8]),),
    "face_fluxes": lambda: (np.linspace(8.0, -1.0, 6), np.array([1.0, 1.0, 0.6, 0.4, 0.0, 0.0]), 0.002, T_HOT, np.zeros(7)),
    "front_position": lambda: (np.array([1.0, 1.0, 0.3, 0.0]), 0.5),
    "front_position#none": lambda: (np.ones(4), 0.5),
    "neumann_lambda": lambda: (0.126,),
    "melt": lambda: (np.full(NXC, -RHO * C_S * 0.5), 1.0, 400, 100),
}

if __name__ == "__main__":
    H = np.full(NXC, -RHO * C_S * 0.5)
    dt = 1.0
    fronts = melt(H, dt, 6000, 1000)
    stefan = C_L * (T_HOT - T_MELT) / LATENT
    lam = neumann_lambda(stefan)
    alpha_l = K_L / (RHO * C_L)
    times = dt * 1000 * np.arange(1, fronts.size + 1)
    exact = 2.0 * lam * np.sqrt(alpha_l * times)
    print("Stefan number", "%.6f" % stefan, "lambda", "%.10f" % lam)
    print("fronts", fronts, "analytic", np.round(exact, 5))
    print("melted cells", int((liquid_fraction(H) >= 1.0).sum()), "mushy", int(((liquid_fraction(H) > 0) & (liquid_fraction(H) < 1)).sum()))
