import numpy as np


def norm2(x):
    # only reads: no refs appear
    return np.sqrt(np.sum(x * x))

# run: norm2(np.arange(5.0))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_jit, npr_np_sqrt


@npr_jit
def norm2(x):
    # only reads: no refs appear
    return npr_np_sqrt(jnp.sum(x * x))

# run: norm2(np.arange(5.0))
