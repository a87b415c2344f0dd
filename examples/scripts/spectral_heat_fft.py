"""2-D heat equation solved spectrally with np.fft on a periodic box, complex arrays in place.

The temperature's transform `uhat = np.fft.fft2(u)` is damped in place each step by the exact
factor (`uhat *= decay`, decay = np.exp(-k2 * dt)); a source term is transformed and added
(`uhat += dt * np.fft.fft2(src)`); the Nyquist modes are zeroed through a boolean mask
(`uhat[nyq] = 0`); the field is recovered with `np.fft.ifft2(uhat).real` and written into the
caller's array (`u[:] = ...`) every PRINT_EVERY steps, when its mean and variance are printed.
"""
import numpy as np

ENTRY = "evolve"
KAPPA = 0.05
PRINT_EVERY = 3


def wavenumbers(n, length):
    k = 2.0 * np.pi * np.fft.fftfreq(n, d=length / n)
    kx, ky = np.meshgrid(k, k, indexing="ij")
    return kx ** 2 + ky ** 2


def evolve(u, src, dt, nsteps):
    n = u.shape[0]
    k2 = wavenumbers(n, 2.0 * np.pi)
    decay = np.exp(-KAPPA * k2 * dt)
    nyq = np.zeros(u.shape, dtype=bool)
    nyq[n // 2, :] = True
    nyq[:, n // 2] = True
    uhat = np.fft.fft2(u)
    shat = np.fft.fft2(src)
    for step in range(nsteps):
        uhat *= decay
        uhat += dt * shat
        uhat[nyq] = 0.0
        if step % PRINT_EVERY == 0:
            u[:] = np.fft.ifft2(uhat).real
            print(step, repr(float(u.mean())), repr(float(u.var())))
    u[:] = np.fft.ifft2(uhat).real
    return np.abs(uhat).max()


def make_inputs(size="small"):
    n = 8 if size == "small" else 64
    x = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    X, Y = np.meshgrid(x, x, indexing="ij")
    u = np.exp(np.cos(X) + np.sin(2 * Y))
    src = 0.1 * np.cos(3 * X) * np.cos(Y)
    return dict(u=u, src=src, dt=0.1, nsteps=10)


if __name__ == "__main__":
    inputs = make_inputs("large")
    peak = evolve(**inputs)
    print(repr(peak), repr(inputs["u"].sum()), repr(inputs["u"][10, 20:23].tolist()))
