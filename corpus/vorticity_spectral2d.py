"""2-D incompressible Navier-Stokes in vorticity form, pseudo-spectral on a periodic square.

Domain: turbulence / CFD. The vorticity w on [0, 2 pi)^2 obeys dw/dt + u . grad w = nu lap w.
Set-up code (no array argument) builds the wave numbers with np.meshgrid and the 2/3-rule
dealiasing mask; the initial field is a double shear layer perturbed by noise from a seeded
generator. Each step computes the velocity from the stream function in Fourier space, the
nonlinear term on the grid, and advances with Heun's method (RK2), the viscous term by an
integrating factor; the spectral state is rebound every stage (`w_hat = ...`). Kinetic energy and
enstrophy are printed every few steps (viscosity makes both decay).
"""
import numpy as np  # np2ref: tpu-refused NPR302 (an FFT in complex128)

ENTRY = "run_vorticity"


def wavenumbers(n):
    k = np.fft.fftfreq(n, d=1.0 / n)
    KX, KY = np.meshgrid(k, k, indexing="ij")
    k2 = KX ** 2 + KY ** 2
    k2_inv = np.where(k2 > 0, 1.0 / np.where(k2 > 0, k2, 1.0), 0.0)
    dealias = (np.abs(KX) < n / 3.0) & (np.abs(KY) < n / 3.0)
    return KX, KY, k2, k2_inv, dealias


def shear_layer(n, rng):
    x = 2.0 * np.pi * np.arange(n) / n
    X, Y = np.meshgrid(x, x, indexing="ij")
    w = 5.0 * (np.exp(-25.0 * (Y - np.pi / 2) ** 2) - np.exp(-25.0 * (Y - 3 * np.pi / 2) ** 2))
    w += 0.05 * np.sin(X) + 0.01 * rng.standard_normal((n, n))
    w -= w.mean()
    return w


def velocity(w_hat, KX, KY, k2_inv):
    psi_hat = w_hat * k2_inv
    u = np.real(np.fft.ifft2(1j * KY * psi_hat))
    v = np.real(np.fft.ifft2(-1j * KX * psi_hat))
    return u, v


def nonlinear(w_hat, KX, KY, k2_inv, dealias):
    u, v = velocity(w_hat, KX, KY, k2_inv)
    wx = np.real(np.fft.ifft2(1j * KX * w_hat))
    wy = np.real(np.fft.ifft2(1j * KY * w_hat))
    return -np.fft.fft2(u * wx + v * wy) * dealias


def diagnostics(w_hat, k2_inv, n):
    """Kinetic energy and enstrophy (domain averages, by Parseval)."""
    a2 = np.abs(w_hat) ** 2 / n ** 4
    return 0.5 * np.sum(a2 * k2_inv), 0.5 * np.sum(a2)


def run_vorticity(w, nu, dt, nsteps, every):
    """Advance w in place; returns energy and enstrophy per step."""
    n = w.shape[0]
    KX, KY, k2, k2_inv, dealias = wavenumbers(n)
    decay = np.exp(-nu * k2 * dt)
    w_hat = np.fft.fft2(w)
    energy = np.zeros(nsteps)
    enstrophy = np.zeros(nsteps)
    for step in range(nsteps):
        n1 = nonlinear(w_hat, KX, KY, k2_inv, dealias)
        w_star = (w_hat + dt * n1) * decay
        n2 = nonlinear(w_star, KX, KY, k2_inv, dealias)
        w_hat = (w_hat + 0.5 * dt * n1) * decay + 0.5 * dt * n2
        energy[step], enstrophy[step] = diagnostics(w_hat, k2_inv, n)
        if step % every == 0:
            print(f"t = {(step + 1) * dt:7.3f}  energy = {energy[step]:.10f}"
                  f"  enstrophy = {enstrophy[step]:.10f}")
    w[...] = np.real(np.fft.ifft2(w_hat))
    return energy, enstrophy


def make_inputs(size="small"):
    rng = np.random.default_rng(7)
    n, nsteps, every = (8, 4, 2) if size == "small" else (64, 400, 50)
    return dict(w=shear_layer(n, rng), nu=1e-3, dt=0.01, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energy, enstrophy = run_vorticity(**inputs)
    print(f"energy lost    = {(energy[0] - energy[-1]) / energy[0]:.10f}")
    print(f"max |w|        = {np.abs(inputs['w']).max():.10f}")
