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
from np2ref.rt import npr_at, npr_for, npr_get, npr_jit, npr_range, npr_recur


@npr_jit
def iir(x, a, b):
    y = jax.new_ref(jnp.zeros_like(x))
    npr_at(y)[0] = b * x[0]
    def _loop_i(i, _y_was1):
        npr_at(y)[i] = a * _y_was.read(y, _y_was1, i - 1) + b * npr_get(x)[i]
        _y_was0 = _y_was.stored(y, i)
        _y_was1 = _y_was0
        return _y_was1
    _range_i = npr_range(1, x.shape[0])
    _y_was = npr_recur(_range_i, y, 0, 1)
    _y_was1, = _y_was.first
    _y_was1 = npr_for(_range_i, _loop_i, _y_was1)
    return y[...]

# run: iir(np.cos(np.arange(30.0)), 0.9, 0.1)
