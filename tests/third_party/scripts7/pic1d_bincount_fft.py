"""1-D electrostatic particle-in-cell (two-stream): cloud-in-cell weights deposited with
`np.bincount(..., weights=..., minlength=NG)` on both cells, the potential solved by FFT with the
k = 0 mode zeroed (`phik[0] = 0`), the field by a centred difference with `np.roll`, fields
gathered with the same weights, leapfrog push with `v += ...; x += ...; x %= L`, and the field
energy history preallocated.
"""
import numpy as np

NG = 32
L = 2 * np.pi
NP = 256
DT = 0.1


def deposit(x, dx, q):
    j = np.floor(x / dx).astype(np.int64)
    w = x / dx - j
    rho = np.bincount(j % NG, weights=q * (1.0 - w), minlength=NG)
    rho += np.bincount((j + 1) % NG, weights=q * w, minlength=NG)
    return rho / dx, j, w


def field(rho, dx):
    k = 2 * np.pi * np.fft.fftfreq(NG, d=dx)
    rhok = np.fft.fft(rho - rho.mean())
    phik = np.zeros_like(rhok)
    phik[1:] = rhok[1:] / k[1:] ** 2
    phik[0] = 0.0
    phi = np.fft.ifft(phik).real
    return -(np.roll(phi, -1) - np.roll(phi, 1)) / (2 * dx)


def run(x, v, nsteps):
    dx = L / NG
    q = -L / x.shape[0]
    energy = np.zeros(nsteps)
    for n in range(nsteps):
        rho, j, w = deposit(x, dx, q)
        E = field(rho + 1.0, dx)
        Ep = E[j % NG] * (1.0 - w) + E[(j + 1) % NG] * w
        v += DT * (-Ep)
        x += DT * v
        x %= L
        energy[n] = 0.5 * np.sum(E ** 2) * dx
    return x, v, energy


def make_inputs():
    rng = np.random.default_rng(5)
    x = rng.uniform(0, L, NP)
    v = np.where(np.arange(NP) % 2 == 0, 1.0, -1.0) + 0.01 * rng.normal(size=NP)
    return x, v


CHECKS = {"run": lambda: (*make_inputs(), 20), "deposit": lambda: (make_inputs()[0], L / NG, -0.1)}

if __name__ == "__main__":
    x, v, energy = run(*make_inputs(), 30)
    print(repr(energy[::6].tolist()), repr(v.std()), repr(x.mean()))
