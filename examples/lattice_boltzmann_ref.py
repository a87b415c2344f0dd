# np2ref: converted from examples/lattice_boltzmann.py by np2ref. Arrays that are written are jax.Ref buffers;
# every read is an explicit load (`u[...]`). Functions marked @npr_jit take NumPy arrays from
# host code, run jit-compiled with NumPy's 64-bit types, and write back what they mutate.
"""Lattice Boltzmann (D2Q9, BGK collision) flow past a cylinder in a
channel.

Domain: computational fluid dynamics. Populations f[q, y, x] relax towards
the local equilibrium (collide), move one node along their lattice velocity
with np.roll (stream, periodic in x), bounce back from the cylinder's solid
nodes (a boolean mask) and are reset to an equilibrium inflow on the left
column. The macroscopic density and velocity are recomputed in place each
step. All arrays are updated in place, as in most LBM teaching codes.
"""
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_at, npr_for, npr_get, npr_jit, npr_mask_store, npr_np_sin, npr_np_where, npr_own, npr_range,
)


ENTRY = "run"

NX, NY = 120, 40
STEPS = 400
TAU = 0.6
U_IN = 0.06

# D2Q9 lattice: velocities, weights and the opposite direction of each
CX = (0, 1, 0, -1, 0, 1, -1, -1, 1)
CY = (0, 0, 1, 0, -1, 1, 1, -1, -1)
W = (4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36)
OPP = (0, 3, 4, 1, 2, 7, 8, 5, 6)


@npr_jit(mutated=('feq',))
def equilibrium(feq, rho, ux, uy):
    usq = 1.5 * (ux * ux + uy * uy)
    for q in range(9):
        cu = 3.0 * (npr_get(CX)[q] * ux + npr_get(CY)[q] * uy)
        npr_at(feq)[q] = npr_get(W)[q] * rho * (1.0 + cu + 0.5 * cu * cu - usq)


@npr_jit(mutated=('rho', 'ux', 'uy'))
def macroscopic(f, rho, ux, uy):
    npr_at(rho)[...] = f.sum(axis=0)
    npr_at(ux)[...] = 0.0
    npr_at(uy)[...] = 0.0
    for q in range(9):
        npr_at(ux)[...] += npr_get(CX)[q] * npr_get(f)[q]
        npr_at(uy)[...] += npr_get(CY)[q] * npr_get(f)[q]
    npr_at(ux)[...] /= rho[...]
    npr_at(uy)[...] /= rho[...]


@npr_jit(mutated=('f',))
def stream(f):
    for q in range(9):
        npr_at(f)[q] = jnp.roll(npr_get(f, feeds_store=True)[q], (npr_get(CY)[q], npr_get(CX)[q]), axis=(0, 1))


@npr_jit(mutated=('f',))
def bounce_back(f, solid):
    """Full-way bounce-back: populations in solid nodes reverse direction."""
    npr_mask_store(f, solid, npr_get(f)[OPP, :, :], scalars=(), axis=1)


@npr_jit(mutated=('f',))
def run(f, solid, steps):
    """Advance the populations f in place; return (ux, uy, drag history)."""
    ny, nx = solid.shape
    rho = jax.new_ref(jnp.ones((ny, nx)))
    ux = jax.new_ref(jnp.zeros((ny, nx)))
    uy = jax.new_ref(jnp.zeros((ny, nx)))
    feq = jax.new_ref(jnp.zeros_like(f[...]))
    drag = jax.new_ref(jnp.zeros(steps))
    def _loop_k(k):
        macroscopic(f[...], rho, ux, uy)
        npr_at(ux)[:, 0] = U_IN                # inflow: velocity and density imposed
        npr_at(uy)[:, 0] = 0.0
        npr_at(rho)[:, 0] = 1.0
        equilibrium(feq, rho[...], ux[...], uy[...])
        npr_at(f)[:, :, 0] = feq[...][:, :, 0]
        npr_at(f)[...] += (feq[...] - f[...]) / TAU
        stream(f)
        bounce_back(f, solid)
        npr_at(drag)[k] = jnp.sum(npr_get(ux)[:, 1] - npr_get(ux)[:, -2])
    npr_for(npr_range(steps), _loop_k)
    macroscopic(f[...], rho, ux, uy)
    npr_at(ux)[solid] = 0.0
    npr_at(uy)[solid] = 0.0
    return ux[...], uy[...], drag[...]


@npr_jit
def make_inputs(size="small"):
    nx, ny, steps = (24, 12, 6) if size == "small" else (NX, NY, STEPS)
    y, x = jnp.indices((ny, nx))
    solid = npr_own((x - nx / 4) ** 2 + (y - ny / 2) ** 2 < (ny / 6) ** 2)
    npr_at(solid)[0, :] = True                 # channel walls
    npr_at(solid)[-1, :] = True
    f = jax.new_ref(jnp.zeros((9, ny, nx)))
    ux0 = npr_np_where(solid[...], 0.0, U_IN) * (1.0 + 0.01 * npr_np_sin(2 * np.pi * y / ny))
    equilibrium(f, jnp.ones((ny, nx)), ux0, jnp.zeros((ny, nx)))
    return dict(f=f[...], solid=solid[...], steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    ux, uy, drag = run(**inputs)
    print(f"mean ux    = {ux.mean():.6f}")
    print(f"max |uy|   = {np.abs(uy).max():.6f}")
    print(f"drag proxy = {drag[-1]:.6f}")
# np2ref: sha256 d9a7ae9990e316ea (np2ref overwrites this file only while it is unedited)
