"""Lattice Boltzmann (D2Q9, BGK collision) flow past a cylinder in a
channel.

Domain: computational fluid dynamics. Populations f[q, y, x] relax towards
the local equilibrium (collide), move one node along their lattice velocity
with np.roll (stream, periodic in x), bounce back from the cylinder's solid
nodes (a boolean mask) and are reset to an equilibrium inflow on the left
column. The macroscopic density and velocity are recomputed in place each
step. All arrays are updated in place, as in most LBM teaching codes.
"""
import numpy as np

ENTRY = "run"

NX, NY = 120, 40
STEPS = 400
TAU = 0.6
U_IN = 0.06

# D2Q9 lattice: velocities, weights and the opposite direction of each
CX = (0, 1, 0, -1, 0, 1, -1, -1, 1)
CY = (0, 0, 1, 0, -1, 1, 1, -1, -1)
W = (4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36)
OPP = (0, 3, 4, 1, 2, 7, 8, 5, 6)


def equilibrium(feq, rho, ux, uy):
    usq = 1.5 * (ux * ux + uy * uy)
    for q in range(9):
        cu = 3.0 * (CX[q] * ux + CY[q] * uy)
        feq[q] = W[q] * rho * (1.0 + cu + 0.5 * cu * cu - usq)


def macroscopic(f, rho, ux, uy):
    rho[...] = f.sum(axis=0)
    ux[...] = 0.0
    uy[...] = 0.0
    for q in range(9):
        ux += CX[q] * f[q]
        uy += CY[q] * f[q]
    ux /= rho
    uy /= rho


def stream(f):
    for q in range(9):
        f[q] = np.roll(f[q], (CY[q], CX[q]), axis=(0, 1))


def bounce_back(f, solid):
    """Full-way bounce-back: populations in solid nodes reverse direction."""
    f[:, solid] = f[OPP, :, :][:, solid]


def run(f, solid, steps):
    """Advance the populations f in place; return (ux, uy, drag history)."""
    ny, nx = solid.shape
    rho = np.ones((ny, nx))
    ux = np.zeros((ny, nx))
    uy = np.zeros((ny, nx))
    feq = np.zeros_like(f)
    drag = np.zeros(steps)
    for k in range(steps):
        macroscopic(f, rho, ux, uy)
        ux[:, 0] = U_IN                # inflow: velocity and density imposed
        uy[:, 0] = 0.0
        rho[:, 0] = 1.0
        equilibrium(feq, rho, ux, uy)
        f[:, :, 0] = feq[:, :, 0]
        f += (feq - f) / TAU
        stream(f)
        bounce_back(f, solid)
        drag[k] = np.sum(ux[:, 1] - ux[:, -2])
    macroscopic(f, rho, ux, uy)
    ux[solid] = 0.0
    uy[solid] = 0.0
    return ux, uy, drag


def make_inputs(size="small"):
    nx, ny, steps = (24, 12, 6) if size == "small" else (NX, NY, STEPS)
    y, x = np.indices((ny, nx))
    solid = (x - nx / 4) ** 2 + (y - ny / 2) ** 2 < (ny / 6) ** 2
    solid[0, :] = True                 # channel walls
    solid[-1, :] = True
    f = np.zeros((9, ny, nx))
    ux0 = np.where(solid, 0.0, U_IN) * (1.0 + 0.01 * np.sin(2 * np.pi * y / ny))
    equilibrium(f, np.ones((ny, nx)), ux0, np.zeros((ny, nx)))
    return dict(f=f, solid=solid, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    ux, uy, drag = run(**inputs)
    print(f"mean ux    = {ux.mean():.6f}")
    print(f"max |uy|   = {np.abs(uy).max():.6f}")
    print(f"drag proxy = {drag[-1]:.6f}")
