"""1-D electrostatic particle-in-cell: the two-stream instability.

Domain: plasma physics. Electrons in two counter-streaming beams move through a fixed
neutralising ion background on a periodic domain [0, L). Each step deposits the charge on the
grid with cloud-in-cell weights (np.add.at), solves Poisson's equation with an FFT, gathers the
field back to the particles with the same weights, and pushes them (leapfrog). Positions are
folded into the box by rebinding (`x += v * dt; x = x % L`), as PIC codes write it. The grid is
built by set-up code that takes no array; the field and kinetic energy (the instability turns the
beams' kinetic energy into field energy) and the momentum are printed every few steps.
"""
import numpy as np  # np2ref: tpu-refused NPR302 (an FFT in complex128)

ENTRY = "run_pic"


def make_grid(ng, L):
    """Cell spacing and the grid's wave numbers (FFT order)."""
    dx = L / ng
    k = 2.0 * np.pi * np.fft.fftfreq(ng, d=dx)
    return dx, k


def two_stream(rng, n, L, v0, vth):
    """Quiet start: evenly spaced positions, alternate particles in the +v0 and -v0 beams."""
    x = (np.arange(n) + 0.5) * (L / n)
    v = vth * rng.standard_normal(n)
    v[0::2] += v0
    v[1::2] -= v0
    x += 1e-3 * L * np.sin(2.0 * np.pi * x / L)  # seed the fundamental mode
    return x, v


def deposit(x, dx, ng):
    """Cloud-in-cell charge density of the electrons (charge -1 each), ions neutralising."""
    j = np.floor(x / dx).astype(np.int64)
    w = x / dx - j
    rho = np.zeros(ng)
    np.add.at(rho, j % ng, 1.0 - w)
    np.add.at(rho, (j + 1) % ng, w)
    rho *= -ng / x.shape[0]
    rho += 1.0
    return rho, j, w


def field(rho, k):
    """E from Gauss's law dE/dx = rho, solved spectrally (the mean mode carries no field)."""
    rho_k = np.fft.fft(rho)
    e_k = np.zeros_like(rho_k)
    e_k[1:] = -1j * rho_k[1:] / k[1:]
    return np.real(np.fft.ifft(e_k))


def run_pic(x, v, L, ng, dt, nsteps, every):
    """Push the particles x, v in place; returns field energy and kinetic energy per step."""
    dx, k = make_grid(ng, L)
    n = x.shape[0]
    ef = np.zeros(nsteps)
    ek = np.zeros(nsteps)
    for step in range(nsteps):
        rho, j, w = deposit(x, dx, ng)
        E = field(rho, k)
        Ep = (1.0 - w) * E[j % ng] + w * E[(j + 1) % ng]
        v -= Ep * dt  # electrons: q/m = -1
        x += v * dt
        x = x % L
        ef[step] = 0.5 * dx * np.sum(E * E)
        ek[step] = 0.5 * L / n * np.sum(v * v)
        if step % every == 0:
            print(f"t = {step * dt:6.2f}  field = {ef[step]:.10e}  kinetic = {ek[step]:.10f}"
                  f"  momentum = {np.sum(v) / n:+.3e}")
    return ef, ek


def make_inputs(size="small"):
    rng = np.random.default_rng(5)
    n, ng, nsteps, every = (16, 8, 5, 2) if size == "small" else (20000, 64, 400, 50)
    L = 2.0 * np.pi / 0.5  # k L = 2 pi at the most unstable k v0 ~ 0.5 for v0 = 1
    x, v = two_stream(rng, n, L, 1.0, 0.01)
    return dict(x=x, v=v, L=L, ng=ng, dt=0.1, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    ef, ek = run_pic(**inputs)
    print(f"peak field energy = {ef.max():.10f}")
    print(f"total energy      = {ef[-1] + ek[-1]:.10f} (start {ef[0] + ek[0]:.10f})")
