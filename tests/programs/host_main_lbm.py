"""Lattice Boltzmann flow past a cylinder (after P. Mocz, "Create Your Own Lattice Boltzmann
Simulation"), its simulation inside a main() that seeds NumPy's generator and prints, so main()
stays host code and `np2ref convert` lifts its loops (tests/host/test_host_loops.py). The boundary
uses np.where where Mocz selects `F[cylinder, :]`."""
import numpy as np


def main():
    Nx, Ny = 32, 12
    rho0 = 100
    tau = 0.6
    Nt = 12
    NL = 9
    idxs = np.arange(NL)
    cxs = np.array([0, 0, 1, 1, 1, 0, -1, -1, -1])
    cys = np.array([0, 1, 1, 0, -1, -1, -1, 0, 1])
    weights = np.array([4/9, 1/9, 1/36, 1/9, 1/36, 1/9, 1/36, 1/9, 1/36])

    np.random.seed(42)
    F = np.ones((Ny, Nx, NL))
    F += 0.01 * np.random.randn(Ny, Nx, NL)
    X, Y = np.meshgrid(range(Nx), range(Ny))
    F[:, :, 3] += 2 * (1 + 0.2 * np.cos(2 * np.pi * X / Nx * 4))
    rho = np.sum(F, 2)
    for i in idxs:
        F[:, :, i] *= rho0 / rho

    cylinder = (X - Nx / 4)**2 + (Y - Ny / 2)**2 < (Ny / 4)**2

    for it in range(Nt):
        for i, cx, cy in zip(idxs, cxs, cys):
            F[:, :, i] = np.roll(F[:, :, i], cx, axis=1)
            F[:, :, i] = np.roll(F[:, :, i], cy, axis=0)

        bndryF = F[:, :, [0, 5, 6, 7, 8, 1, 2, 3, 4]]

        rho = np.sum(F, 2)
        ux = np.sum(F * cxs, 2) / rho
        uy = np.sum(F * cys, 2) / rho

        Feq = np.zeros(F.shape)
        for i, cx, cy, w in zip(idxs, cxs, cys, weights):
            Feq[:, :, i] = rho * w * (1 + 3 * (cx * ux + cy * uy) + 9 * (cx * ux + cy * uy)**2 / 2 - 3 * (ux**2 + uy**2) / 2)

        F += -(1.0 / tau) * (F - Feq)
        F[...] = np.where(cylinder[:, :, None], bndryF, F)

        ux = np.where(cylinder, 0.0, ux)
        uy = np.where(cylinder, 0.0, uy)
        vorticity = (np.roll(ux, -1, axis=0) - np.roll(ux, 1, axis=0)) - (np.roll(uy, -1, axis=1) - np.roll(uy, 1, axis=1))
        vorticity = np.where(cylinder, np.nan, vorticity)
    print(f"{float(F.sum()):.6f} {float(np.nanmax(vorticity)):.6f}")
    return F, vorticity


if __name__ == "__main__":
    main()
