# np2ref: converted from examples/particle_deposition.py by np2ref. Arrays that are written are jax.Ref buffers;
# every read is an explicit load (`u[...]`). Functions marked @npr_jit take NumPy arrays from
# host code, run jit-compiled with NumPy's 64-bit types, and write back what they mutate.
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
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_astype, npr_at, npr_fill, npr_for, npr_generator, npr_iop, npr_jit, npr_load, npr_mod,
    npr_np_floor, npr_np_full, npr_np_sin, npr_random, npr_range, npr_ufunc_at,
)


ENTRY = "deposit_run"

NG = 32          # grid nodes per side
NPART = 4000     # particles
STEPS = 40
DT = 0.05


@npr_jit(mutated=('rho',))
def deposit(rho, x, y, q):
    """Bilinear (CIC) deposit of charges q at (x, y) into rho, which is
    zeroed first. Coordinates are in grid units, 0 <= x, y < ng."""
    ng = rho.shape[0]
    ix = npr_astype(npr_np_floor(x), jnp.int64)
    iy = npr_astype(npr_np_floor(y), jnp.int64)
    fx = x - ix
    fy = y - iy
    jx = npr_mod(ix + 1, ng)
    jy = npr_mod(iy + 1, ng)
    npr_fill(rho, 0.0)
    npr_ufunc_at('add', rho, (ix, iy), q * (1.0 - fx) * (1.0 - fy))
    npr_ufunc_at('add', rho, (jx, iy), q * fx * (1.0 - fy))
    npr_ufunc_at('add', rho, (ix, jy), q * (1.0 - fx) * fy)
    npr_ufunc_at('add', rho, (jx, jy), q * fx * fy)


@npr_jit(mutated=('x', 'y'), rebound=('x', 'y'))
def push(x, y, dt):
    """Move particles in a steady vortex field, wrapping periodically."""
    ng = NG * 1.0
    vx = -npr_np_sin(2.0 * np.pi * npr_load(y) / ng)
    vy = npr_np_sin(2.0 * np.pi * npr_load(x) / ng)
    x = npr_iop(x, '+', dt * ng / 4.0 * vx)
    y = npr_iop(y, '+', dt * ng / 4.0 * vy)
    x = npr_iop(x, '%', ng)
    y = npr_iop(y, '%', ng)


@npr_jit(mutated=('x', 'y', 'rho_mean'))
def deposit_run(x, y, q, rho_mean, steps):
    """Move and deposit `steps` times; x, y and rho_mean (the time-averaged
    density) are updated in place. Returns the last instantaneous density."""
    rho = jax.new_ref(jnp.zeros_like(rho_mean[...]))
    npr_fill(rho_mean, 0.0)
    def _loop_k(k):
        push(x, y, DT)
        deposit(rho, x[...], y[...], q)
        npr_at(rho_mean)[...] += rho[...] / steps
    npr_for(npr_range(steps), _loop_k)
    return rho[...]


@npr_jit
def make_inputs(size="small"):
    rng = npr_generator(np.random.default_rng, 0)
    n, steps = (200, 4) if size == "small" else (NPART, STEPS)
    x = NG * (0.25 + 0.2 * npr_random(rng, 'random', n))
    y = NG * (0.4 + 0.2 * npr_random(rng, 'random', n))
    return dict(x=x, y=y, q=npr_np_full(n, 1.0 / n), rho_mean=jnp.zeros((NG, NG)), steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    rho = deposit_run(**inputs)
    print(f"total charge = {rho.sum():.6f}")
    print(f"peak mean    = {inputs['rho_mean'].max():.6f}")
    print(f"centroid x   = {inputs['x'].mean():.6f}")
# np2ref: sha256 ece03b80b901d777 (np2ref overwrites this file only while it is unedited)
