import numpy as np


def reset(a, m):
    a.sort()
    m.fill(0)
    np.fill_diagonal(m, 2.0)
    a[0], a[-1] = a[-1].copy(), a[0].copy()

# run: reset(np.array([3.0, 1.0, 2.0]), np.ones((3, 3)))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_fill, npr_fill_diagonal, npr_jit, npr_sort


@npr_jit(mutated=('a', 'm'))
def reset(a, m):
    npr_sort(a)
    npr_fill(m, 0)
    npr_fill_diagonal(m, 2.0)
    npr_at(a)[0], npr_at(a)[-1] = a[...][-1].copy(), a[...][0].copy()

# run: reset(np.array([3.0, 1.0, 2.0]), np.ones((3, 3)))
