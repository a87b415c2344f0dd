import numpy as np


def apply_bc(u):
    u[0] = 0.0
    u[-1] = 0.0
    return u


def step(u, nu):
    lap = u[2:] - 2 * u[1:-1] + u[:-2]
    u[1:-1] += nu * lap
    v = apply_bc(u)
    v[1] = 5.0         # v is u: the caller sees it
    return u.max()

# run: step(np.linspace(0.0, 1.0, 7) ** 2, 0.1)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_jit, npr_own


@npr_jit(mutated=('u',))
def apply_bc(u):
    npr_at(u)[0] = 0.0
    npr_at(u)[-1] = 0.0
    return u


@npr_jit(mutated=('u',))
def step(u, nu):
    lap = u[...][2:] - 2 * u[...][1:-1] + u[...][:-2]
    npr_at(u)[1:-1] += nu * lap
    v = npr_own(apply_bc(u))
    npr_at(v)[1] = 5.0         # v is u: the caller sees it
    return u[...].max()

# run: step(np.linspace(0.0, 1.0, 7) ** 2, 0.1)
