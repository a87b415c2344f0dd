"""A D2Q9 lattice Boltzmann flow past a cylinder as its author wrote it (after P. Mocz): a main()
that seeds NumPy's generator, a time loop that prints the step, prints an energy every 10 steps
and plots through matplotlib (not importable here: `plt` is None and the plotting guard false).
The plotting call keeps the loop host code; `np2ref convert` compiles the array work between the
host statements as one step per pass (tests/host/test_host_steps.py)."""
import numpy as np

try:
    import matplotlib.pyplot as plt
except ImportError:
    plt = None


def main(plotRealTime=False):
    Nx, Ny = 24, 10
    rho0 = 100.0
    tau = 0.6
    Nt = 30
    NL = 9
    cxs = np.array([0, 0, 1, 1, 1, 0, -1, -1, -1])
    cys = np.array([0, 1, 1, 0, -1, -1, -1, 0, 1])
    weights = np.array([4/9, 1/9, 1/36, 1/9, 1/36, 1/9, 1/36, 1/9, 1/36])

    np.random.seed(42)
    F = np.ones((Ny, Nx, NL))
    F += 0.01 * np.random.randn(Ny, Nx, NL)
    X, Y = np.meshgrid(range(Nx), range(Ny))
    F[:, :, 3] += 2 * (1 + 0.2 * np.cos(2 * np.pi * X / Nx * 4))
    cylinder = (X - Nx / 4) ** 2 + (Y - Ny / 2) ** 2 < (Ny / 4) ** 2
    vorticity = None

    for it in range(Nt):
        print(it)
        for i, cx, cy in zip(range(NL), cxs, cys):
            F[:, :, i] = np.roll(F[:, :, i], cx, axis=1)
            F[:, :, i] = np.roll(F[:, :, i], cy, axis=0)
        bndryF = F[cylinder, :]
        bndryF = bndryF[:, [0, 5, 6, 7, 8, 1, 2, 3, 4]]
        rho = np.sum(F, 2)
        ux = np.sum(F * cxs, 2) / rho
        uy = np.sum(F * cys, 2) / rho
        Feq = np.zeros(F.shape)
        for i, cx, cy, w in zip(range(NL), cxs, cys, weights):
            Feq[:, :, i] = rho * w * (1 + 3 * (cx * ux + cy * uy) + 9 * (cx * ux + cy * uy) ** 2 / 2
                                      - 3 * (ux ** 2 + uy ** 2) / 2)
        F += -(1.0 / tau) * (F - Feq)
        F[cylinder, :] = bndryF
        if it % 10 == 0:
            energy = np.sum(ux ** 2 + uy ** 2)
            print(energy)
        if (plotRealTime and (it % 10) == 0) or (it == Nt - 1):
            vorticity = (np.roll(ux, -1, axis=0) - np.roll(ux, 1, axis=0)) - (
                np.roll(uy, -1, axis=1) - np.roll(uy, 1, axis=1))
            if plotRealTime:
                plt.imshow(vorticity, cmap='bwr')
                plt.pause(0.001)
    print(F.sum())
    return F, vorticity


if __name__ == "__main__":
    main()
