import numpy as np


def relax(u, omega):
    v = u            # an alias: writes through v land in u
    v *= omega
    total = 0.0
    total += u.sum()
    w = np.zeros(3, dtype=np.float32)
    w += 1.5
    return total, w

# run: relax(np.linspace(0.0, 1.0, 5), 0.5)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_iop, npr_jit, npr_load


@npr_jit(mutated=('u',))
def relax(u, omega):
    v = u            # an alias: writes through v land in u
    v = npr_iop(v, '*', omega)
    total = 0.0
    total += npr_load(u).sum()
    w = jnp.zeros(3, dtype=jnp.float32)
    w = npr_iop(w, '+', 1.5)
    return total, w

# run: relax(np.linspace(0.0, 1.0, 5), 0.5)
