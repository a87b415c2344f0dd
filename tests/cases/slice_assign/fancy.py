import numpy as np


def scatter_last_wins(a, idx, vals):
    a[idx] = vals          # repeated indices: the last occurrence wins
    a[[0, 1]] = a[[1, 0]]
    b = a[..., None]
    return b.shape

# run: scatter_last_wins(np.zeros(6), np.array([1, 3, 1, 5]), np.array([1.0, 2.0, 3.0, 4.0]))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_jit, npr_sub


@npr_jit(mutated=('a',))
def scatter_last_wins(a, idx, vals):
    npr_at(a)[idx] = vals          # repeated indices: the last occurrence wins
    npr_at(a)[np.array([0, 1])] = npr_sub(a, np.array([1, 0]))
    b = npr_sub(a, np.s_[..., None])
    return b.shape

# run: scatter_last_wins(np.zeros(6), np.array([1, 3, 1, 5]), np.array([1.0, 2.0, 3.0, 4.0]))
