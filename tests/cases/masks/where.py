import numpy as np


def clamp_negative(u, b):
    mask = u < 0
    u[mask] = 0.0
    u[u > 2] *= 0.5
    np.copyto(b, u, where=mask)
    np.putmask(u, u > 1.5, b)

# run: clamp_negative(np.array([-1.0, 0.5, 3.0, -2.0, 1.8]), np.full(5, 9.0))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_copyto, npr_jit, npr_mask_store, npr_putmask


@npr_jit(mutated=('u', 'b'))
def clamp_negative(u, b):
    mask = u[...] < 0
    npr_at(u)[mask] = 0.0
    npr_mask_store(u, u[...] > 2, 0.5, op='*')
    npr_copyto(b, u[...], where=mask)
    npr_putmask(u, u[...] > 1.5, b[...])

# run: clamp_negative(np.array([-1.0, 0.5, 3.0, -2.0, 1.8]), np.full(5, 9.0))
