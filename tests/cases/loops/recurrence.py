import numpy as np


def iir(x, a, b):
    y = np.zeros_like(x)
    y[0] = b * x[0]
    for i in range(1, x.shape[0]):
        y[i] = a * y[i - 1] + b * x[i]
    return y

# run: iir(np.cos(np.arange(30.0)), 0.9, 0.1)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_get, npr_jit, npr_range


@npr_jit
def iir(x, a, b):
    y = jax.new_ref(jnp.zeros_like(x))
    npr_at(y)[0] = b * x[0]
    def _loop_i(i):
        npr_at(y)[i] = a * npr_get(y, feeds_store=True)[i - 1] + b * npr_get(x)[i]
    npr_for(npr_range(1, x.shape[0]), _loop_i)
    return y[...]

# run: iir(np.cos(np.arange(30.0)), 0.9, 0.1)
