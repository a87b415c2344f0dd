"""A Gaussian wave packet tunnelling through a barrier, in the pattern of quantum-mechanics course
scripts, two ways: split-step Fourier (`psi *= half_kick`, np.fft.fft / ifft, the kinetic phase
`np.exp(-0.5j * k**2 * dt)`, an absorbing mask multiplied in at the ends) and Crank-Nicolson
with a complex tridiagonal (Thomas) solve in element loops; complex128 and a complex64 run, the
imaginary part of the initial state zeroed (by the form NPR205's hint gives for writes through
`psi.imag` / `psi.real`), `psi.real` read for a
node count, the norm by `np.vdot`, <x> by `(np.abs(psi) ** 2 * x).sum()`, the transmitted share
right of the barrier printed every few steps, and the phase of the packet's peak by np.angle.
"""
import numpy as np

NX = 128
XMAX = 40.0
X = np.linspace(-XMAX / 2, XMAX / 2, NX, endpoint=False)
DX = X[1] - X[0]
K = 2.0 * np.pi * np.fft.fftfreq(NX, d=DX)
V0, WIDTH = 1.2, 1.0
V = np.where(np.abs(X) < WIDTH / 2, V0, 0.0)
MASK = np.ones(NX)
edge = np.abs(X) > 0.4 * XMAX
MASK[edge] = np.cos(0.5 * np.pi * (np.abs(X[edge]) - 0.4 * XMAX) / (0.1 * XMAX)) ** 0.125


def packet(x0, k0, sigma, dtype=np.complex128):
    psi = np.exp(-((X - x0) ** 2) / (4 * sigma ** 2)).astype(dtype)
    psi *= np.exp(1j * k0 * X).astype(dtype)
    psi /= np.sqrt(np.vdot(psi, psi).real * DX)
    return psi


def split_step(psi, dt, steps, every=20):
    half_kick = np.exp(-0.5j * V * dt).astype(psi.dtype)
    drift = np.exp(-0.5j * K ** 2 * dt).astype(psi.dtype)
    for n in range(1, steps + 1):
        psi *= half_kick
        phi = np.fft.fft(psi)
        phi *= drift
        psi[:] = np.fft.ifft(phi)
        psi *= half_kick
        psi *= MASK
        if n % every == 0:
            rho = np.abs(psi) ** 2
            print("step", n, "norm", "%.6f" % (rho.sum() * DX), "transmitted", "%.6f" % (rho[X > WIDTH].sum() * DX))
    return psi


def thomas_complex(a, b, c, d):
    """Solve the tridiagonal system with sub-, main and super-diagonals a, b, c (complex)."""
    n = len(d)
    cp = np.zeros(n, dtype=complex)
    dp = np.zeros(n, dtype=complex)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.zeros(n, dtype=complex)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def crank_nicolson(psi, dt, steps):
    r = 1j * dt / (4 * DX * DX)
    main = 1 + 2 * r + 0.5j * dt * V
    off = np.full(NX, -r)
    for _ in range(steps):
        rhs = (1 - 2 * r - 0.5j * dt * V) * psi
        rhs[1:] += r * psi[:-1]
        rhs[:-1] += r * psi[1:]
        psi = thomas_complex(off, main, off, rhs)
        psi[0] = psi[-1] = 0.0
    return psi


def observables(psi):
    rho = np.abs(psi) ** 2
    norm = rho.sum() * DX
    mean_x = (rho * X).sum() * DX / norm
    peak = np.argmax(rho)
    nodes = np.count_nonzero(np.diff(np.sign(psi.real)) != 0)
    return norm, mean_x, np.angle(psi[peak]), nodes


def real_start(x0, sigma):
    """First written `psi.imag[...] = 0.0; psi.real[far] = -0.0` (NPR205: writes through a
    part of each complex element); here in the form np2ref's hint gives."""
    psi = packet(x0, 0.0, sigma)
    psi[...] = psi.real + 1j * 0.0
    far = np.abs(X - x0) > 4 * sigma
    psi[far] = -0.0 + 1j * psi.imag[far]
    return psi


CHECKS = {
    "split_step": lambda: (packet(-6.0, 1.5, 1.0), 0.05, 40),
    "split_step#complex64": lambda: (packet(-6.0, 1.5, 1.0, np.complex64), 0.05, 20, 1000),  # quiet: float32 norms
    "thomas_complex": lambda: (np.full(5, 1 - 0.5j), np.arange(5) + 3.0 + 1j, np.full(5, -0.25j), np.arange(5) * (1 + 1j)),
    "crank_nicolson": lambda: (packet(-6.0, 1.5, 1.0), 0.05, 6),
    "observables": lambda: (packet(-2.0, 1.0, 0.8),),
    "real_start": lambda: (-3.0, 0.7),
    "packet": lambda: (1.0, -2.0, 1.5, np.complex64),
}

if __name__ == "__main__":
    psi = split_step(packet(-6.0, 1.5, 1.0), 0.05, 120, every=40)
    norm, mean_x, phase, nodes = observables(psi)
    print("split-step norm", "%.8f" % norm, "<x>", "%.6f" % mean_x, "nodes", nodes)
    psi_cn = crank_nicolson(packet(-6.0, 1.5, 1.0), 0.05, 40)
    print("crank-nicolson norm", "%.8f" % observables(psi_cn)[0], psi_cn.dtype)
    psi32 = split_step(packet(-6.0, 1.5, 1.0, np.complex64), 0.05, 40, every=1000)  # float32: quiet
    print("complex64", psi32.dtype, "%.4f" % observables(psi32)[0])
    start = real_start(-3.0, 0.7)
    print("real start", start.dtype, bool(np.all(start.imag == 0)), int(np.signbit(start.real).sum()))
