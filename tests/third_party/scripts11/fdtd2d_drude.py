"""2-D TMz FDTD with a Drude metal slab: Ez, Hx, Hy on a Yee grid, an auxiliary polarisation
current Jz updated in place only inside the metal (a boolean mask), the Drude coefficients
computed at module level from Python floats, a soft Gaussian source at one point, float32
fields with float64 coefficients mixed in, a probe recorded every step into a preallocated
array, the field energy printed every N steps, and a helper that writes its argument (the
first-order Mur-like damping of the outer ring) handed views of Ez.
"""
import numpy as np

NX, NY = 40, 32
C0 = 1.0
DX = 1.0
DT = 0.5 * DX / C0
WP = 0.6          # plasma frequency
GAMMA = 0.05      # collision rate
KJ = (1.0 - GAMMA * DT / 2.0) / (1.0 + GAMMA * DT / 2.0)
BJ = WP ** 2 * DT / (1.0 + GAMMA * DT / 2.0)
SRC = (10, 16)
PRINT_EVERY = 20

metal = np.zeros((NX, NY), dtype=bool)
metal[24:30, 6:26] = True


def damp_edges(edge, factor):
    """Scale an edge strip in place (the caller passes views of Ez)."""
    edge *= factor


def step(ez, hx, hy, jz, mask, n):
    hx[:, :-1] -= np.float32(DT / DX) * (ez[:, 1:] - ez[:, :-1])
    hy[:-1, :] += np.float32(DT / DX) * (ez[1:, :] - ez[:-1, :])
    curl = np.zeros_like(ez)
    curl[1:, 1:] = (hy[1:, 1:] - hy[:-1, 1:]) - (hx[1:, 1:] - hx[1:, :-1])
    ez[1:, 1:] += (DT / DX) * curl[1:, 1:]
    ez[mask] -= DT * jz[mask]
    jz[mask] = KJ * jz[mask] + BJ * ez[mask]
    pulse = np.exp(-((n - 30.0) / 10.0) ** 2)
    ez[SRC] += pulse
    damp_edges(ez[0, :], 0.5)
    damp_edges(ez[-1, :], 0.5)
    damp_edges(ez[:, 0], 0.5)
    damp_edges(ez[:, -1], 0.5)


def energy(ez, hx, hy):
    return 0.5 * (float(np.sum(ez.astype(np.float64) ** 2)) + float(np.sum(hx.astype(np.float64) ** 2))
                  + float(np.sum(hy.astype(np.float64) ** 2)))


def run(nsteps, mask, probe_at=(20, 16)):
    ez = np.zeros((NX, NY), dtype=np.float32)
    hx = np.zeros((NX, NY), dtype=np.float32)
    hy = np.zeros((NX, NY), dtype=np.float32)
    jz = np.zeros((NX, NY), dtype=np.float32)
    probe = np.zeros(nsteps, dtype=np.float32)
    peak = 0.0
    for n in range(nsteps):
        step(ez, hx, hy, jz, mask, n)
        probe[n] = ez[probe_at]
        peak = max(peak, float(np.abs(ez).max()))
        if n % PRINT_EVERY == 0:
            print("step", n, "energy", repr(round(energy(ez, hx, hy), 6)))
    return ez, jz, probe, peak


def transmission(probe, split):
    before = np.sum(probe[:split].astype(np.float64) ** 2)
    after = np.sum(probe[split:].astype(np.float64) ** 2)
    if before == 0:
        return 0.0
    return after / before


def step_inputs():
    rng = np.random.default_rng(7)
    f = lambda: rng.standard_normal((NX, NY)).astype(np.float32) * np.float32(0.1)
    return (f(), f(), f(), f(), metal.copy(), 5)


CHECKS = {
    "run": lambda: (40, metal.copy()),
    "run#vacuum": lambda: (30, np.zeros((NX, NY), dtype=bool), (12, 12)),
    "step": step_inputs,
    "energy": lambda: tuple(np.linspace(0, 1, NX * NY, dtype=np.float32).reshape(NX, NY) for _ in range(3)),
    "transmission": lambda: (np.sin(np.arange(50, dtype=np.float32) / 5), 20),
}

if __name__ == "__main__":
    ez, jz, probe, peak = run(100, metal)
    print("peak", repr(peak), ez.dtype, jz.dtype)
    print("probe max", repr(float(np.abs(probe).max())))
    print("T", repr(float(transmission(probe, 50))))
    print("J in metal", repr(float(np.abs(jz[metal]).sum())))
