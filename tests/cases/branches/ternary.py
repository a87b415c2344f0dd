import numpy as np


def relu_sum(x, idx, size):
    n = 2 if size == "small" else x.shape[0]
    s = 0.0
    for i in range(n):
        s = s + (x[i] if x[i] > 0 else 0.0)
    k = idx[0]
    first = x[k] if k < x.shape[0] and x[k] > 0 else -1.0
    return s, first, x[0] > 0 and x[1] > 0

# run: relu_sum(np.array([1.0, -2.0, 3.0]), np.array([2]), "big")
# run: relu_sum(np.array([-1.0, 2.0, 3.0]), np.array([9]), "small")
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_and_then, npr_andv, npr_for, npr_get, npr_ifexp, npr_jit, npr_range


@npr_jit(python_scalars=True)
def relu_sum(x, idx, size):
    n = 2 if size == "small" else x.shape[0]
    s = 0.0
    def _loop_i(i, s):
        s = s + (npr_ifexp(npr_get(x)[i] > 0, lambda: npr_get(x)[i], lambda: 0.0))
        return s
    s = npr_for(npr_range(n), _loop_i, s)
    k = idx[0]
    first = npr_ifexp(npr_and_then(k < x.shape[0], lambda: npr_get(x)[k] > 0), lambda: npr_get(x)[k], lambda: -1.0)
    return s, first, npr_andv(x[0] > 0, lambda: npr_get(x)[1] > 0)

# run: relu_sum(np.array([1.0, -2.0, 3.0]), np.array([2]), "big")
# run: relu_sum(np.array([-1.0, 2.0, 3.0]), np.array([9]), "small")
