import numpy as np


def accumulate(a, idx, w):
    a[idx] += w            # buffered: each target once
    a[1:] *= 2
    a //= 3
    a %= 5
    return a

# run: accumulate(np.arange(8), np.array([0, 0, 2, 7]), 4)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_jit


@npr_jit(mutated=('a',))
def accumulate(a, idx, w):
    npr_at(a)[idx] += w            # buffered: each target once
    npr_at(a)[1:] *= 2
    npr_at(a)[...] //= 3
    npr_at(a)[...] %= 5
    return a

# run: accumulate(np.arange(8), np.array([0, 0, 2, 7]), 4)
