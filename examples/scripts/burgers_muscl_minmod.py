"""Viscous-free Burgers by MUSCL with a minmod limiter on shifted views, periodic, RK2 (Heun).

Slopes come from shifted views of a padded copy (`up[2:] - up[1:-1]`, `up[1:-1] - up[:-2]`),
limited by minmod written with np.where, np.minimum, np.maximum and np.sign; face states are
reconstructed, the Rusanov flux uses np.maximum of |u|; the Heun stage writes `u1` through
`out=` and the final average is a slice assignment into u. Total variation printed each step.
"""
import numpy as np

ENTRY = "evolve"


def minmod(a, b):
    return np.where(a * b > 0.0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def minmod_maxmin(a, b):
    """The same limiter as max(0, min(a, b)) + min(0, max(a, b))."""
    return np.maximum(0.0, np.minimum(a, b)) + np.minimum(0.0, np.maximum(a, b))


def rhs(u, dx, limiter):
    up = np.concatenate((u[-2:], u, u[:2]))
    s = limiter(up[2:] - up[1:-1], up[1:-1] - up[:-2])       # slope at cells -1..n
    uc = up[1:-1]
    uL = uc[:-1] + 0.5 * s[:-1]                             # left state at face i+1/2
    uR = uc[1:] - 0.5 * s[1:]
    a = np.maximum(np.abs(uL), np.abs(uR))
    F = 0.25 * (uL ** 2 + uR ** 2) - 0.5 * a * (uR - uL)
    return -(F[1:] - F[:-1]) / dx


def evolve(u, dx, dt, nsteps, use_maxmin):
    limiter = minmod_maxmin if use_maxmin else minmod
    u1 = np.empty_like(u)
    tv = np.zeros(nsteps)
    for n in range(nsteps):
        np.add(u, dt * rhs(u, dx, limiter), out=u1)
        u[:] = 0.5 * (u + u1 + dt * rhs(u1, dx, limiter))
        tv[n] = np.sum(np.abs(np.diff(u)))
        print(n, repr(float(tv[n])))
    return tv


def make_inputs(size="small"):
    nx = 16 if size == "small" else 200
    x = (np.arange(nx) + 0.5) / nx
    u = 0.5 + np.sin(2 * np.pi * x)
    return dict(u=u, dx=1.0 / nx, dt=0.2 / nx, nsteps=10, use_maxmin=False)


def _maxmin_inputs():
    return {**make_inputs("small"), "use_maxmin": True}


CHECKS = {"evolve": lambda: make_inputs("small"), "evolve#maxmin": _maxmin_inputs}

if __name__ == "__main__":
    for use_maxmin in (False, True):
        inputs = make_inputs("large")
        inputs["use_maxmin"] = use_maxmin
        tv = evolve(**inputs)
        print(repr(tv[-1]), repr(inputs["u"].sum()), repr(inputs["u"][:4].tolist()))
