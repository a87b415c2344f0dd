import numpy as np


def fill_edges(u, v):
    u[0] = 1.0
    u[-1] = v
    u[2:5] = 7
    u[::-2] = -1.5
    u[10:20] = 3.0  # out of range: NumPy clamps to an empty slice
    return u.sum()

# run: fill_edges(np.zeros(9), 2.5)
# run: fill_edges(np.zeros(9, dtype=np.int32), 2.5)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_jit


@npr_jit(mutated=('u',))
def fill_edges(u, v):
    npr_at(u)[0] = 1.0
    npr_at(u)[-1] = v
    npr_at(u)[2:5] = 7
    npr_at(u)[::-2] = -1.5
    npr_at(u)[10:20] = 3.0  # out of range: NumPy clamps to an empty slice
    return u[...].sum()

# run: fill_edges(np.zeros(9), 2.5)
# run: fill_edges(np.zeros(9, dtype=np.int32), 2.5)
