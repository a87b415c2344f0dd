"""A 2-D particle-mesh (PM) gravity code in the pattern of cosmology teaching scripts: particles
drawn at module level from a seeded Generator, cloud-in-cell deposit onto a periodic grid with
`np.add.at` of the four corner weights (indices wrapped with `%`), the Poisson equation solved
with np.fft.fft2 and a Green's function 1/k^2 whose k = 0 entry is set to 1 before dividing and
the mean mode zeroed after, the field by central differences with np.roll, the CIC gather of
the field back to the particles with the same weights, a kick-drift-kick leapfrog with
`pos %= BOX` and a helper writing the accelerations into an array handed in, the total momentum
and the largest density contrast printed every few steps.
"""
import numpy as np

NG = 16
BOX = 1.0
CELL = BOX / NG
G4PI = 1.0
rng = np.random.default_rng(7)
NP = 64
POS0 = rng.random((NP, 2)) * BOX
VEL0 = 0.05 * rng.standard_normal((NP, 2))
MASS = np.full(NP, 1.0 / NP)

kx = 2.0 * np.pi * np.fft.fftfreq(NG, d=CELL)
KX, KY = np.meshgrid(kx, kx, indexing="ij")
K2 = KX ** 2 + KY ** 2
K2[0, 0] = 1.0


def cic_weights(pos):
    g = pos / CELL - 0.5
    i0 = np.floor(g).astype(int)
    f = g - i0
    i0 %= NG
    i1 = (i0 + 1) % NG
    return i0, i1, f


def deposit(pos, mass, rho):
    rho[...] = 0.0
    i0, i1, f = cic_weights(pos)
    wx0, wy0 = 1.0 - f[:, 0], 1.0 - f[:, 1]
    wx1, wy1 = f[:, 0], f[:, 1]
    np.add.at(rho, (i0[:, 0], i0[:, 1]), mass * wx0 * wy0)
    np.add.at(rho, (i1[:, 0], i0[:, 1]), mass * wx1 * wy0)
    np.add.at(rho, (i0[:, 0], i1[:, 1]), mass * wx0 * wy1)
    np.add.at(rho, (i1[:, 0], i1[:, 1]), mass * wx1 * wy1)
    rho /= CELL * CELL
    return rho


def potential(rho):
    delta = rho - rho.mean()
    phi_k = -G4PI * np.fft.fft2(delta) / K2
    phi_k[0, 0] = 0.0
    return np.fft.ifft2(phi_k).real


def field(phi):
    gx = -(np.roll(phi, -1, axis=0) - np.roll(phi, 1, axis=0)) / (2.0 * CELL)
    gy = -(np.roll(phi, -1, axis=1) - np.roll(phi, 1, axis=1)) / (2.0 * CELL)
    return gx, gy


def gather(gx, gy, pos, acc):
    i0, i1, f = cic_weights(pos)
    for comp, g in enumerate((gx, gy)):
        acc[:, comp] = (g[i0[:, 0], i0[:, 1]] * (1 - f[:, 0]) * (1 - f[:, 1])
                        + g[i1[:, 0], i0[:, 1]] * f[:, 0] * (1 - f[:, 1])
                        + g[i0[:, 0], i1[:, 1]] * (1 - f[:, 0]) * f[:, 1]
                        + g[i1[:, 0], i1[:, 1]] * f[:, 0] * f[:, 1])


def accelerations(pos, mass, rho, acc):
    deposit(pos, mass, rho)
    gx, gy = field(potential(rho))
    gather(gx, gy, pos, acc)


def simulate(pos, vel, mass, steps, dt, every=5):
    rho = np.zeros((NG, NG))
    acc = np.zeros_like(pos)
    accelerations(pos, mass, rho, acc)
    for n in range(1, steps + 1):
        vel += 0.5 * dt * acc
        pos += dt * vel
        pos %= BOX
        accelerations(pos, mass, rho, acc)
        vel += 0.5 * dt * acc
        if n % every == 0:
            p = (mass[:, None] * vel).sum(axis=0)
            contrast = rho.max() / rho.mean() - 1.0
            print("step", n, "momentum", np.round(p, 12), "contrast", repr(round(float(contrast), 8)))
    return rho


CHECKS = {
    "simulate": lambda: (POS0.copy(), VEL0.copy(), MASS, 10, 0.01),
    "deposit": lambda: (POS0, MASS, np.ones((NG, NG))),
    "cic_weights": lambda: (np.array([[0.0, 0.999], [0.03125, 0.5], [0.97, 0.01]]),),
    "potential": lambda: (deposit(POS0, MASS, np.zeros((NG, NG))),),
    "field": lambda: (np.sin(np.arange(NG * NG).reshape(NG, NG) * 0.1),),
    "gather": lambda: (np.cos(np.arange(256.0).reshape(NG, NG)), np.sin(np.arange(256.0).reshape(NG, NG)),
                       POS0, np.zeros((NP, 2))),
}

if __name__ == "__main__":
    pos, vel = POS0.copy(), VEL0.copy()
    rho = simulate(pos, vel, MASS, 30, 0.01, every=10)
    print("total mass", repr(round(float(rho.sum() * CELL * CELL), 12)))
    print("inside box", bool(np.all((pos >= 0.0) & (pos < BOX))))
    print(np.round(pos[:4], 8))
