import numpy as np


def clip_step(x, i):
    if x[i] > 0:
        return x[i]
    return 0.0


def positive_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += clip_step(x, i)
    return np.float64(s)


# run: positive_sum(np.array([1.5, -2.0, 3.0]))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_for, npr_get, npr_if, npr_jit, npr_pyreturn, npr_range, npr_unset, npr_value,
)


@npr_jit(python_scalars=True)
def clip_step(x, i):
    def _then_1(_return_1):
        _return_1 = npr_get(x)[i]
        return _return_1
    def _else_1(_return_1):
        _return_1 = 0.0
        return _return_1
    _return_1 = npr_if(npr_get(x)[i] > 0, _then_1, _else_1, npr_unset, returns=(0,))
    return npr_pyreturn(_return_1, 'passed')


@npr_jit
def positive_sum(x):
    s = 0.0
    def _loop_i(i, s):
        s += npr_value(clip_step(x, i))
        return s
    s = npr_for(npr_range(x.shape[0]), _loop_i, s)
    return jnp.float64(s)


# run: positive_sum(np.array([1.5, -2.0, 3.0]))
