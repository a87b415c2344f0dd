"""Spectral Poisson solve on a periodic square with np.fft: the source's spectrum scaled in place
by -1/k^2 (the mean mode zeroed first, then a division guarded by np.divide(..., where=)),
gradients by multiplying the spectrum by i k into work arrays, a dealiasing mask applied by a
masked store, the residual of the discrete Laplacian printed; a 2-D vorticity step that uses the
solve every step (streamfunction from vorticity, velocity by spectral derivatives, advection in
physical space, hyperviscous damping of the spectrum by `what *= np.exp(...)`), enstrophy kept
in a history array.
"""
import numpy as np

N = 32
L = 2 * np.pi
K1 = np.fft.fftfreq(N, d=L / (2 * np.pi * N))
KX, KY = np.meshgrid(K1, K1, indexing="ij")
K2 = KX ** 2 + KY ** 2
KMAX = np.abs(K1).max()
DEALIAS = (np.abs(KX) < 2.0 / 3.0 * KMAX) & (np.abs(KY) < 2.0 / 3.0 * KMAX)
X = np.arange(N) * L / N
XX, YY = np.meshgrid(X, X, indexing="ij")


def poisson(f):
    fh = np.fft.fft2(f)
    fh[0, 0] = 0.0
    inv = np.zeros_like(K2)
    np.divide(-1.0, K2, out=inv, where=K2 > 0)
    fh *= inv
    return np.fft.ifft2(fh).real


def gradient(u, gx, gy):
    uh = np.fft.fft2(u)
    gx[...] = np.fft.ifft2(1j * KX * uh).real
    gy[...] = np.fft.ifft2(1j * KY * uh).real


def laplacian_fd(u):
    h = L / u.shape[0]
    return (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4 * u) / h ** 2


def vorticity_run(w, dt, nsteps, nu):
    ux = np.zeros_like(w)
    uy = np.zeros_like(w)
    wx = np.zeros_like(w)
    wy = np.zeros_like(w)
    ens = np.zeros(nsteps)
    for n in range(nsteps):
        psi = poisson(-w)
        gradient(psi, uy, ux)
        ux *= -1.0
        gradient(w, wx, wy)
        what = np.fft.fft2(w - dt * (ux * wx + uy * wy))
        what[~DEALIAS] = 0.0
        what *= np.exp(-nu * dt * K2 ** 2)
        w[...] = np.fft.ifft2(what).real
        ens[n] = 0.5 * np.mean(w ** 2)
        if n % 5 == 0:
            print("step", n, "enstrophy", repr(round(float(ens[n]), 12)))
    return ens


def spectrum(w, nbins):
    wh = np.abs(np.fft.fft2(w)) ** 2
    k = np.sqrt(K2).ravel()
    bins = np.minimum((k / KMAX * nbins).astype(np.int64), nbins - 1)
    e = np.zeros(nbins)
    np.add.at(e, bins, wh.ravel())
    return e / e.sum()


def source(kx, ky):
    return np.sin(kx * XX) * np.cos(ky * YY) + 0.1 * np.cos(3 * XX)


CHECKS = {
    "poisson": lambda: (source(2, 3),),
    "gradient": lambda: (source(1, 2), np.zeros((N, N)), np.zeros((N, N))),
    "laplacian_fd": lambda: (source(1, 1),),
    "vorticity_run": lambda: (source(2, 1) + 0.5 * source(1, 3), 0.05, 6, 1e-3),
    "spectrum": lambda: (source(3, 2), 8),
}

if __name__ == "__main__":
    f = source(2, 3)
    u = poisson(f)
    print("mean u", repr(round(float(u.mean()), 12) + 0.0), "max", repr(round(float(u.max()), 10)))
    res = laplacian_fd(u) - (f - f.mean())
    print("fd residual", repr(round(float(np.abs(res).max()), 8)))
    w = source(2, 1) + 0.5 * source(1, 3)
    ens = vorticity_run(w, 0.05, 20, 1e-3)
    print("final enstrophy", repr(round(float(ens[-1]), 12)))
    print("spectrum", np.round(spectrum(w, 8), 8))
