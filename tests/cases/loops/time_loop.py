import numpy as np


def leapfrog(u, steps, c):
    u_prev = u.copy()
    u_next = np.zeros_like(u)
    energy = 0.0
    for t in range(steps):
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + c * (u[2:] - 2 * u[1:-1] + u[:-2])
        energy += np.sum(u_next * u_next)
        u_prev, u, u_next = u, u_next, u_prev
    return energy, u.copy()

# run: leapfrog(np.sin(np.linspace(0.0, 3.0, 9)), 40, 0.25)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_jit, npr_load, npr_range, npr_rotate, npr_rotated


@npr_jit(mutated=('u',))
def leapfrog(u, steps, c):
    u_prev = jax.new_ref(npr_load(u).copy())
    u_next = jax.new_ref(jnp.zeros_like(npr_load(u)))
    energy = 0.0
    def _loop_t(t, carry):
        energy, u = carry
        npr_at(u_next)[1:-1] = 2 * npr_load(u)[1:-1] - u_prev[...][1:-1] + c * (npr_load(u)[2:] - 2 * npr_load(u)[1:-1] + npr_load(u)[:-2])
        energy += jnp.sum(u_next[...] * u_next[...])
        npr_rotate((u_prev, u, u_next), (u, u_next, u_prev))
        return energy, u
    _range_t = npr_range(steps)
    energy, u = npr_for(_range_t, _loop_t, (energy, u))
    u_prev, u, u_next = npr_rotated(_range_t, (u_prev, u, u_next), (u, u_next, u_prev))
    return energy, npr_load(u).copy()

# run: leapfrog(np.sin(np.linspace(0.0, 3.0, 9)), 40, 0.25)
