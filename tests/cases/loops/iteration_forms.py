import numpy as np


def weights(u, w):
    total = 0.0
    for i, x in enumerate(w):
        u[i] += x * i
        total += x
    return total


def dot_zip(a, b, out):
    for x, y in zip(a, b):
        out[0] += x * y


def backward_sweep(x):
    y = np.zeros_like(x)
    y[-1] = x[-1]
    for i in reversed(range(x.shape[0] - 1)):
        y[i] = 0.5 * y[i + 1] + x[i]
    return y


def last_index(u):
    i = -1
    for i in range(u.shape[0]):   # `i` is read after the loop: stays a Python loop
        u[i] = i
    return i

# run: weights(np.zeros(4), np.arange(4.0))
# run: dot_zip(np.arange(3.0), np.ones(4), np.zeros(1))
# run: backward_sweep(np.arange(6.0))
# run: last_index(np.zeros(3))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_get, npr_jit, npr_pyreturn, npr_range


@npr_jit(mutated=('u',), items=('w',))
def weights(u, w):
    total = 0.0
    def _loop_i(i, total):
        x = w[i]
        npr_at(u)[i] += x * i
        total += x
        return total
    total = npr_for(npr_range(len(w)), _loop_i, total)
    return npr_pyreturn(total, 'passed')


@npr_jit(mutated=('out',), items=('a', 'b'))
def dot_zip(a, b, out):
    def _loop__k(_k):
        x = a[_k]
        y = b[_k]
        npr_at(out)[0] += x * y
    npr_for(npr_range(min(len(a), len(b))), _loop__k)


@npr_jit
def backward_sweep(x):
    y = jax.new_ref(jnp.zeros_like(x))
    npr_at(y)[-1] = x[-1]
    def _loop_i(i):
        npr_at(y)[i] = 0.5 * npr_get(y, feeds_store=True)[i + 1] + npr_get(x)[i]
    npr_for(npr_range(x.shape[0] - 1 - 1, 0 - 1, -1), _loop_i)
    return y[...]


@npr_jit(mutated=('u',))
def last_index(u):
    i = -1
    for i in range(u.shape[0]):   # `i` is read after the loop: stays a Python loop
        npr_at(u)[i] = i
    return npr_pyreturn(i, 'int')

# run: weights(np.zeros(4), np.arange(4.0))
# run: dot_zip(np.arange(3.0), np.ones(4), np.zeros(1))
# run: backward_sweep(np.arange(6.0))
# run: last_index(np.zeros(3))
