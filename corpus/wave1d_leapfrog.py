"""Second-order leapfrog (central difference in time and space) solver for
the 1-D scalar wave equation u_tt = (c(x)^2) u_xx.

Domain: seismic / acoustic wave propagation along a heterogeneous 1-D medium
with clamped ends, an absorbing sponge layer at the right end, a point source
driven by a wavelet and a set of receivers. Three time levels are kept in
separate buffers that are rotated every step.
"""
import numpy as np

ENTRY = "simulate"

N_SPONGE = 4   # minimum sponge width in cells


def apply_fixed_ends(u):
    """Clamp both ends; returns its (mutated) argument."""
    u[0] = 0.0
    u[-1] = 0.0
    return u


def apply_sponge(u, sponge):
    """Damp the last len(sponge) cells in place; returns its argument."""
    u[-sponge.shape[0]:] *= sponge
    return u


def simulate(u0, v0, c, dx, dt, wavelet, src, receivers, sponge):
    """Run len(wavelet) leapfrog steps starting from (u0, v0).

    On return u0 holds the final displacement. Returns the seismogram
    (steps x n_receivers) and the final discrete energy as a 0-d array.
    """
    steps = wavelet.shape[0]
    c2 = (c * dt / dx) ** 2
    # Taylor start-up step
    u_prev = u0.copy()
    u = u0.copy()
    u[1:-1] += dt * v0[1:-1] + 0.5 * c2[1:-1] * (u0[2:] - 2.0 * u0[1:-1] + u0[:-2])
    apply_fixed_ends(u)
    u_next = np.zeros_like(u0)
    seismogram = np.zeros((steps, receivers.shape[0]))
    for k in range(steps):
        u_next[1:-1] = (2.0 * u[1:-1] - u_prev[1:-1]
                        + c2[1:-1] * (u[2:] - 2.0 * u[1:-1] + u[:-2]))
        u_next = apply_fixed_ends(u_next)
        apply_sponge(u_next, sponge)
        u_next[src] += dt * dt * wavelet[k]
        seismogram[k] = u_next[receivers]
        u_prev, u, u_next = u, u_next, u_prev
    energy = np.zeros(())
    vel = (u - u_prev) / dt
    energy += 0.5 * np.sum(vel * vel) * dx
    energy += 0.5 * np.sum((c[1:] * np.diff(u)) ** 2) / dx
    np.copyto(u0, u)
    return seismogram, energy


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, steps, nrec = 16, 10, 3
    else:
        n, steps, nrec = 4000, 6000, 16
    length = 1.0
    dx = length / (n - 1)
    c = 1.0 + 0.5 * rng.random(n)
    dt = 0.9 * dx / c.max()
    x = np.linspace(0.0, length, n)
    u0 = np.exp(-((x - 0.3) / 0.05) ** 2)
    u0[0] = 0.0
    u0[-1] = 0.0
    v0 = 0.1 * rng.standard_normal(n)
    t = np.arange(steps) * dt
    t0 = 20.0 * dt
    wavelet = (1.0 - 2.0 * (np.pi * 10.0 * (t - t0)) ** 2) * np.exp(-(np.pi * 10.0 * (t - t0)) ** 2)
    wavelet *= 1.0e3
    receivers = np.sort(rng.choice(np.arange(1, n - 1), size=nrec, replace=False))
    nsp = max(N_SPONGE, n // 20)
    sponge = np.exp(-(0.05 * np.arange(1, nsp + 1)) ** 2)
    return dict(u0=u0, v0=v0, c=c, dx=dx, dt=dt, wavelet=wavelet,
                src=n // 4, receivers=receivers, sponge=sponge)


if __name__ == "__main__":
    inputs = make_inputs("large")
    seis, energy = simulate(**inputs)
    print(f"energy        = {float(energy):.6f}")
    print(f"max |u|       = {np.abs(inputs['u0']).max():.6f}")
    print(f"seismogram rms= {np.sqrt(np.mean(seis ** 2)):.6f}")
