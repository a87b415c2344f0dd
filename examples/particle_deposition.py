"""Particle deposition: cloud-in-cell (CIC) charge deposition of drifting
particles onto a periodic 2-D grid with np.add.at.

Domain: the deposition step of a 2-D particle-in-cell code. Each particle
spreads its charge over the four grid nodes around it with bilinear
weights; many particles share a node, so the deposit must accumulate every
contribution (np.add.at, unbuffered), not keep only the last one as the
buffered `rho[ix, iy] += w` would. Between deposits the particles move in a
fixed rotating velocity field and wrap around the periodic box. The density
is time-averaged in place.
"""
import numpy as np

ENTRY = "deposit_run"

NG = 32          # grid nodes per side
NPART = 4000     # particles
STEPS = 40
DT = 0.05


def deposit(rho, x, y, q):
    """Bilinear (CIC) deposit of charges q at (x, y) into rho, which is
    zeroed first. Coordinates are in grid units, 0 <= x, y < ng."""
    ng = rho.shape[0]
    ix = np.floor(x).astype(np.int64)
    iy = np.floor(y).astype(np.int64)
    fx = x - ix
    fy = y - iy
    jx = (ix + 1) % ng
    jy = (iy + 1) % ng
    rho.fill(0.0)
    np.add.at(rho, (ix, iy), q * (1.0 - fx) * (1.0 - fy))
    np.add.at(rho, (jx, iy), q * fx * (1.0 - fy))
    np.add.at(rho, (ix, jy), q * (1.0 - fx) * fy)
    np.add.at(rho, (jx, jy), q * fx * fy)


def push(x, y, dt):
    """Move particles in a steady vortex field, wrapping periodically."""
    ng = NG * 1.0
    vx = -np.sin(2.0 * np.pi * y / ng)
    vy = np.sin(2.0 * np.pi * x / ng)
    x += dt * ng / 4.0 * vx
    y += dt * ng / 4.0 * vy
    x %= ng
    y %= ng


def deposit_run(x, y, q, rho_mean, steps):
    """Move and deposit `steps` times; x, y and rho_mean (the time-averaged
    density) are updated in place. Returns the last instantaneous density."""
    rho = np.zeros_like(rho_mean)
    rho_mean.fill(0.0)
    for k in range(steps):
        push(x, y, DT)
        deposit(rho, x, y, q)
        rho_mean += rho / steps
    return rho


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    n, steps = (200, 4) if size == "small" else (NPART, STEPS)
    x = NG * (0.25 + 0.2 * rng.random(n))
    y = NG * (0.4 + 0.2 * rng.random(n))
    return dict(x=x, y=y, q=np.full(n, 1.0 / n), rho_mean=np.zeros((NG, NG)), steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    rho = deposit_run(**inputs)
    print(f"total charge = {rho.sum():.6f}")
    print(f"peak mean    = {inputs['rho_mean'].max():.6f}")
    print(f"centroid x   = {inputs['x'].mean():.6f}")
