"""1-D electrostatic particle-in-cell (PIC) cycle with cloud-in-cell (CIC)
charge deposition on a periodic grid.

Domain: plasma physics, two-stream-like electron beams over a neutralising
ion background. Each step deposits charge with np.add.at (many particles land
in the same cell), integrates Gauss's law with a cumulative sum, gathers the
field back to the particles (linear interpolation) and pushes them
(leapfrog), wrapping positions periodically. A coarse diagnostic grid uses
integer //= binning, and the "legacy" buffered deposit rho[idx] += w is kept
alongside to show how many contributions it drops.
"""
import numpy as np

ENTRY = "simulate"

COARSEN = 4        # grid cells per diagnostic bin


def cic_weights(x, dx, ng):
    """Return left cell, right cell (both int64, wrapped) and right weight."""
    s = x / dx
    left = s.astype(np.int64)          # x >= 0, so truncation == floor
    frac = s - left
    left %= ng
    right = left + 1
    right %= ng
    return left, right, frac


def deposit(x, w, rho, dx):
    """Cloud-in-cell deposit into rho (zeroed first); returns rho."""
    ng = rho.shape[0]
    left, right, frac = cic_weights(x, dx, ng)
    rho.fill(0.0)
    np.add.at(rho, left, w * (1.0 - frac))
    np.add.at(rho, right, w * frac)
    rho /= dx
    return rho


def field_solve(rho, E, work, background, dx):
    """dE/dx = rho - background on a periodic grid, E with zero mean."""
    np.subtract(rho, background, out=work)
    np.cumsum(work, out=E)
    E *= dx
    E -= np.mean(E)


def gather(E, x, dx):
    ng = E.shape[0]
    left, right, frac = cic_weights(x, dx, ng)
    return (1.0 - frac) * E[left] + frac * E[right]


def simulate(x, v, w, length, ng, qm, dt, steps):
    """Run `steps` PIC cycles, mutating x and v in place.

    Returns (rho, E, field energy history, coarse density, naive deposit).
    """
    dx = length / ng
    rho = np.zeros(ng)
    E = np.zeros(ng)
    work = np.zeros(ng)
    background = np.sum(w) / length
    energy = np.zeros(steps)
    for k in range(steps):
        deposit(x, w, rho, dx)
        field_solve(rho, E, work, background, dx)
        v += qm * gather(E, x, dx) * dt
        x += v * dt
        x %= length
        energy[k] = 0.5 * np.sum(E * E) * dx
    deposit(x, w, rho, dx)
    field_solve(rho, E, work, background, dx)
    # diagnostics
    left, right, frac = cic_weights(x, dx, ng)
    coarse_idx = left.copy()
    coarse_idx //= COARSEN
    coarse = np.zeros((ng + COARSEN - 1) // COARSEN)
    np.add.at(coarse, coarse_idx, w)
    naive = np.zeros(ng)
    naive[left] += w                   # buffered: one particle per cell survives
    return rho, E, energy, coarse, naive


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        npart, ng, steps = 24, 8, 4
    else:
        npart, ng, steps = 100000, 256, 300
    length = 2.0 * np.pi
    x = rng.uniform(0.0, length, size=npart)
    v = np.where(rng.random(npart) < 0.5, 1.0, -1.0) + 0.05 * rng.standard_normal(npart)
    v += 0.01 * np.sin(x)
    w = np.full(npart, -length / npart)   # electrons, total charge -length
    return dict(x=x, v=v, w=w, length=length, ng=ng, qm=-1.0, dt=0.1,
                steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    rho, E, energy, coarse, naive = simulate(**inputs)
    print(f"field energy start = {energy[0]:.6e}")
    print(f"field energy end   = {energy[-1]:.6e}")
    print(f"total charge       = {rho.sum() * inputs['length'] / inputs['ng']:.6f}")
    print(f"coarse bin sum     = {coarse.sum():.6f}")
    print(f"naive deposit sum  = {naive.sum():.6f}")
