import numpy as np


def sweep(dst, src):
    dst[1:-1] = 0.5 * (src[2:] + src[:-2])


def jacobi(u, steps):
    cur = u.copy()
    nxt = u.copy()
    for _ in range(steps):
        sweep(nxt, cur)
        cur, nxt = nxt, cur
    u[...] = cur

# run: jacobi(np.linspace(0.0, 1.0, 6) ** 2, 3)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_jit, npr_range, npr_rotate


@npr_jit(mutated=('dst',))
def sweep(dst, src):
    npr_at(dst)[1:-1] = 0.5 * (src[2:] + src[:-2])


@npr_jit(mutated=('u',))
def jacobi(u, steps):
    cur = jax.new_ref(u[...].copy())
    nxt = jax.new_ref(u[...].copy())
    def _loop__(_):
        sweep(nxt, cur[...])
        npr_rotate((cur, nxt), (nxt, cur))
    npr_for(npr_range(steps), _loop__)
    npr_at(u)[...] = cur[...]

# run: jacobi(np.linspace(0.0, 1.0, 6) ** 2, 3)
