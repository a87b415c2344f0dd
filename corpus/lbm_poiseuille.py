"""Lattice Boltzmann D2Q9 channel (Poiseuille flow) with bounce-back walls.

Domain: mesoscopic CFD. A body force g drives fluid along a channel that is periodic in x and
closed by solid rows at the top and bottom, where full-way bounce-back reverses the populations
(no slip). The walls come from `np.meshgrid(range(nx), range(ny))` in set-up code. A step takes
the moments, collides the fluid nodes (BGK) in place on the caller's populations, then streams
into a new array (`f = stream(f)`, rebinding) and bounces back at the walls with a helper that
returns its argument. Mass (conserved) and the centre-line velocity, which tends to the
analytical g H^2 / (8 nu), are printed every few steps.
"""
import numpy as np

ENTRY = "run_channel"

CX = np.array([0, 1, 0, -1, 0, 1, -1, -1, 1])
CY = np.array([0, 0, 1, 0, -1, 1, 1, -1, -1])
W = np.array([4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36])
OPP = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6])


def channel_walls(nx, ny):
    X, Y = np.meshgrid(range(nx), range(ny))
    return (Y == 0) | (Y == ny - 1)


def equilibrium(rho, ux, uy):
    cu = 3.0 * (CX[:, None, None] * ux + CY[:, None, None] * uy)
    usq = 1.5 * (ux * ux + uy * uy)
    return W[:, None, None] * rho * (1.0 + cu + 0.5 * cu * cu - usq)


def moments(f):
    rho = f.sum(axis=0)
    ux = np.tensordot(CX, f, axes=1) / rho
    uy = np.tensordot(CY, f, axes=1) / rho
    return rho, ux, uy


def stream(f):
    out = np.empty_like(f)
    for i in range(9):
        out[i] = np.roll(f[i], (CY[i], CX[i]), axis=(0, 1))
    return out


def bounce_back(f, solid):
    f[:, solid] = f[OPP][:, solid]
    return f


def run_channel(f, solid, tau, g, nsteps, every):
    """Collide the caller's populations in place at the first step, then work on streamed
    copies; returns the final populations and the centre-line velocity per step."""
    ny = f.shape[1]
    fluid = ~solid
    nu = (tau - 0.5) / 3.0
    H = ny - 2
    u_exact = g * H * H / (8.0 * nu)
    centre = np.zeros(nsteps)
    for step in range(nsteps):
        rho, ux, uy = moments(f)
        ux = ux + tau * g
        feq = equilibrium(rho, ux, uy)
        f[:, fluid] -= (f[:, fluid] - feq[:, fluid]) / tau
        f = stream(f)
        f = bounce_back(f, solid)
        centre[step] = ux[ny // 2].mean() - (tau - 0.5) * g  # the shift less half the force
        if step % every == 0:
            print(f"step {step:5d}  mass = {f.sum():.10f}  u_centre / u_exact = "
                  f"{centre[step] / u_exact:.10f}")
    return f, centre


def make_inputs(size="small"):
    nx, ny, nsteps, every = (4, 7, 4, 2) if size == "small" else (8, 33, 3000, 500)
    solid = channel_walls(nx, ny)
    rho0 = np.ones((ny, nx))
    f = equilibrium(rho0, np.zeros((ny, nx)), np.zeros((ny, nx)))
    return dict(f=f, solid=solid, tau=0.9, g=1e-6, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    f, centre = run_channel(**inputs)
    print(f"final centre velocity = {centre[-1]:.10e}")
    print(f"populations min       = {f.min():.10f}")
