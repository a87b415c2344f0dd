import numpy as np


def sweep(u, f, h2, sweeps):
    n = u.shape[0]
    for s in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - h2 * f[i, j])

# run: sweep(np.zeros((6, 6)) + np.eye(6), np.ones((6, 6)), 0.01, 3)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_get, npr_jit, npr_range


@npr_jit(mutated=('u',))
def sweep(u, f, h2, sweeps):
    n = u.shape[0]
    def _loop_s(s):
        def _loop_i(i):
            def _loop_j(j):
                npr_at(u)[i, j] = 0.25 * (npr_get(u, feeds_store=True)[i - 1, j] + npr_get(u, feeds_store=True)[i + 1, j] + npr_get(u, feeds_store=True)[i, j - 1] + npr_get(u, feeds_store=True)[i, j + 1] - h2 * npr_get(f)[i, j])
            npr_for(npr_range(1, n - 1), _loop_j)
        npr_for(npr_range(1, n - 1), _loop_i)
    npr_for(npr_range(sweeps), _loop_s)

# run: sweep(np.zeros((6, 6)) + np.eye(6), np.ones((6, 6)), 0.01, 3)
