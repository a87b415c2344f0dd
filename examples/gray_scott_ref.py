# np2ref: converted from examples/gray_scott.py by np2ref. Arrays that are written are jax.Ref buffers;
# every read is an explicit load (`u[...]`). Functions marked @npr_jit take NumPy arrays from
# host code, run jit-compiled with NumPy's 64-bit types, and write back what they mutate.
"""Gray-Scott reaction-diffusion on a periodic square, explicit Euler.

Domain: pattern formation (spots, stripes, mazes). Two concentrations u and
v diffuse with a five-point Laplacian written with np.roll and react
(u + 2v -> 3v, feed F, kill k). The fields are updated in place; the
pattern that forms depends on (F, k), which is what the companion script
batch_gray_scott.py explores with jax.vmap over a batch of simulations.
"""
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_at, npr_for, npr_generator, npr_if, npr_iop, npr_jit, npr_load, npr_np_mean, npr_random,
    npr_range,
)


ENTRY = "simulate"

N = 64
STEPS = 2000
DU, DV = 0.16, 0.08
DT = 1.0


@npr_jit(mutated=('out',))
def laplacian(a, out):
    """Periodic five-point Laplacian of a written into out."""
    npr_at(out)[...] = (jnp.roll(a, 1, axis=0) + jnp.roll(a, -1, axis=0)
                + jnp.roll(a, 1, axis=1) + jnp.roll(a, -1, axis=1) - 4.0 * a)


@npr_jit(mutated=('u', 'v'), lists=('feed', 'kill'), rebound=('u', 'v'))
def react(u, v, lu, lv, feed, kill):
    uvv = npr_load(u) * npr_load(v) * npr_load(v)
    u = npr_iop(u, '+', DT * (DU * lu - uvv + feed * (1.0 - npr_load(u))))
    v = npr_iop(v, '+', DT * (DV * lv + uvv - (feed + kill) * npr_load(v)))


@npr_jit(mutated=('u', 'v'))
def simulate(u, v, feed, kill, steps):
    """Advance (u, v) in place; return the mean of v every 10 steps."""
    lu = jax.new_ref(jnp.zeros_like(u[...]))
    lv = jax.new_ref(jnp.zeros_like(v[...]))
    mean_v = jax.new_ref(jnp.zeros(steps // 10))
    def _loop_k(k):
        laplacian(u[...], lu)
        laplacian(v[...], lv)
        react(u, v, lu[...], lv[...], feed, kill)
        def _then_1():
            npr_at(mean_v)[k // 10] = npr_np_mean(v[...])
        npr_if(k % 10 == 9, _then_1, None)
    npr_for(npr_range(steps), _loop_k)
    return mean_v[...]


@npr_jit
def initial_state(n, seed=0):
    """u = 1, v = 0, with a noisy square of v in the centre."""
    rng = npr_generator(np.random.default_rng, seed)
    u = jax.new_ref(jnp.ones((n, n)))
    v = jax.new_ref(jnp.zeros((n, n)))
    c, r = n // 2, n // 8
    npr_at(u)[c - r:c + r, c - r:c + r] = 0.5
    npr_at(v)[c - r:c + r, c - r:c + r] = 0.25
    npr_at(u)[...] += 0.02 * npr_random(rng, 'random', (n, n))
    npr_at(v)[...] += 0.02 * npr_random(rng, 'random', (n, n))
    return u[...], v[...]


@npr_jit
def make_inputs(size="small"):
    n, steps = (16, 20) if size == "small" else (N, STEPS)
    u, v = initial_state(n)
    return dict(u=u, v=v, feed=0.035, kill=0.065, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mean_v = simulate(**inputs)
    print(f"mean v end = {mean_v[-1]:.6f}")
    print(f"max v      = {inputs['v'].max():.6f}")
# np2ref: sha256 17087e2cb4a6e207 (np2ref overwrites this file only while it is unedited)
