"""Linear advection by a MUSCL scheme whose slope limiter is chosen by a flag and passed on.

Domain: u_t + a u_x = 0 on a periodic grid, a > 0, upwind fluxes of reconstructed face states,
two-stage Runge-Kutta (Heun) in time. The limiter is a module function picked inside the
stepping function (`limiter = superbee if sharp else minmod`) and handed to the reconstruction
helper, which calls it through its parameter: the pattern of MUSCL scripts that offer several
limiters. Written anew in the pattern of the MUSCL script of docs/scripts.md.
"""
import numpy as np

ENTRY = "advect"
SPEED = 1.0


def minmod(a, b):
    return np.where(a * b > 0.0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def superbee(a, b):
    s = np.sign(b)
    return s * np.maximum(0.0, np.maximum(np.minimum(2.0 * np.abs(b), s * a),
                                          np.minimum(np.abs(b), 2.0 * s * a)))


def rate(u, dx, limiter):
    ul, ur = np.roll(u, 1), np.roll(u, -1)
    slope = limiter(u - ul, ur - u)
    face = u + 0.5 * slope                   # upwind state at face i+1/2 (SPEED > 0)
    flux = SPEED * face
    return -(flux - np.roll(flux, 1)) / dx


def advect(u, dx, dt, nsteps, sharp):
    """Advance u in place by nsteps Heun steps; returns the total variation at the end."""
    limiter = superbee if sharp else minmod
    for _ in range(nsteps):
        u1 = u + dt * rate(u, dx, limiter)
        u[:] = 0.5 * (u + u1 + dt * rate(u1, dx, limiter))
    return np.sum(np.abs(u - np.roll(u, 1)))


def make_inputs(size="small"):
    nx = 24 if size == "small" else 400
    x = (np.arange(nx) + 0.5) / nx
    u = np.where((x > 0.25) & (x < 0.5), 1.0, 0.0) + 0.5 * np.exp(-200.0 * (x - 0.75) ** 2)
    return dict(u=u, dx=1.0 / nx, dt=0.4 / nx, nsteps=20, sharp=True)


if __name__ == "__main__":
    for sharp in (False, True):
        inputs = make_inputs("large")
        inputs["sharp"] = sharp
        tv = advect(**inputs)
        u = inputs["u"]
        print(f"{'superbee' if sharp else 'minmod  '}  TV = {tv:.6f}  max = {u.max():.6f}  mass = {u.sum() * inputs['dx']:.6f}")
