import numpy as np


def deposit(grid, cells, weights):
    np.add.at(grid, cells, weights)
    np.maximum.at(grid, cells, 0.25)
    np.subtract.at(grid, (cells,), 1.0)

# run: deposit(np.zeros(5), np.array([0, 0, 3, 3, 3]), np.array([0.1, 0.2, 0.3, 0.4, 0.5]))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_jit, npr_ufunc_at


@npr_jit(mutated=('grid',))
def deposit(grid, cells, weights):
    npr_ufunc_at('add', grid, cells, weights)
    npr_ufunc_at('maximum', grid, cells, 0.25)
    npr_ufunc_at('subtract', grid, (cells,), 1.0)

# run: deposit(np.zeros(5), np.array([0, 0, 3, 3, 3]), np.array([0.1, 0.2, 0.3, 0.4, 0.5]))
