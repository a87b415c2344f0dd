"""Lattice Boltzmann method, D2Q9 lattice with BGK collision.

Domain: body-force driven flow through a doubly periodic channel past a
solid obstacle (porous-media / cylinder-wake style test). Each time step does
macroscopic moments, equilibrium, BGK collide, streaming with np.roll and
full-way bounce-back on the solid nodes.
"""
import numpy as np

ENTRY = "simulate"

Q = 9
CX_T = (0, 1, 0, -1, 0, 1, -1, -1, 1)
CY_T = (0, 0, 1, 0, -1, 1, 1, -1, -1)
CX = np.array(CX_T, dtype=np.float64)
CY = np.array(CY_T, dtype=np.float64)
W = np.array([4.0 / 9.0] + [1.0 / 9.0] * 4 + [1.0 / 36.0] * 4)
OPP = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6])


def macroscopic(f, rho, ux, uy):
    rho[...] = np.sum(f, axis=0)
    ux[...] = np.einsum("i,iyx->yx", CX, f)
    uy[...] = np.einsum("i,iyx->yx", CY, f)
    ux /= rho
    uy /= rho


def equilibrium(rho, ux, uy, feq):
    usq = 1.5 * (ux * ux + uy * uy)
    cu = 3.0 * (CX[:, None, None] * ux + CY[:, None, None] * uy)
    feq[...] = W[:, None, None] * rho * (1.0 + cu + 0.5 * cu * cu - usq)


def collide(f, feq, omega):
    f -= omega * (f - feq)


def stream(f):
    for i in range(Q):
        f[i] = np.roll(f[i], (CY_T[i], CX_T[i]), axis=(0, 1))


def bounce_back(f, solid):
    f[:, solid] = f[OPP][:, solid]


def simulate(f, solid, tau, gx, steps):
    """Advance the populations f (9, ny, nx) in place.

    Returns (rho, ux, uy) after the final step and the mean x-velocity history.
    """
    ny, nx = f.shape[1], f.shape[2]
    omega = 1.0 / tau
    rho = np.zeros((ny, nx))
    ux = np.zeros((ny, nx))
    uy = np.zeros((ny, nx))
    feq = np.zeros_like(f)
    history = np.zeros(steps)
    for k in range(steps):
        macroscopic(f, rho, ux, uy)
        ux += tau * gx / rho          # velocity shift forcing
        ux[solid] = 0.0
        uy[solid] = 0.0
        equilibrium(rho, ux, uy, feq)
        collide(f, feq, omega)
        stream(f)
        bounce_back(f, solid)
        history[k] = np.mean(ux[~solid])
    macroscopic(f, rho, ux, uy)
    return rho, ux, uy, history


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        ny, nx, steps = 6, 8, 2
    else:
        ny, nx, steps = 100, 300, 300
    y, x = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    solid = (x - nx / 4.0) ** 2 + (y - ny / 2.0) ** 2 < (ny / 6.0) ** 2
    rho0 = 1.0 + 0.01 * rng.standard_normal((ny, nx))
    f = W[:, None, None] * rho0[None, :, :]
    return dict(f=np.ascontiguousarray(f), solid=solid, tau=0.8, gx=1.0e-5,
                steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    rho, ux, uy, hist = simulate(**inputs)
    print(f"total mass   = {rho.sum():.6f}")
    print(f"mean ux      = {hist[-1]:.6e}")
    print(f"max |uy|     = {np.abs(uy).max():.6e}")
