import numpy as np


def damp_interior(u):
    interior = u[1:-1, 1:-1]
    interior *= 0.5
    ut = u.T
    ut[0] = -1.0
    flat = u.ravel()
    flat[0] = 42.0
    return interior.sum()

# run: damp_interior(np.arange(16.0).reshape(4, 4))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_jit, npr_own, npr_ravel, npr_sub, npr_transpose


@npr_jit(mutated=('u',))
def damp_interior(u):
    interior = npr_sub(u, np.s_[1:-1, 1:-1])
    npr_at(interior)[...] *= 0.5
    ut = npr_transpose(u)
    npr_at(ut)[0] = -1.0
    flat = npr_own(npr_ravel(u))
    npr_at(flat)[0] = 42.0
    return interior[...].sum()

# run: damp_interior(np.arange(16.0).reshape(4, 4))
