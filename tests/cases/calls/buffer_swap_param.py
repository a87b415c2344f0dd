import numpy as np


def sweep(dst, src):
    dst[1:-1] = 0.5 * (src[2:] + src[:-2])


def relax(u, steps):
    cur = u  # the caller's buffer takes part in the swap
    nxt = u.copy()
    for _ in range(steps):
        sweep(nxt, cur)
        cur, nxt = nxt, cur
    cur[0] += 1.0
    return nxt.sum()


def rotate3(a, steps):
    b = a + 1.0
    c = a * 2.0
    x, y, z = a, b, c
    for k in range(steps):
        x[0] += y[1] - z[2]
        x, y, z = y, z, x
    y[2] = -1.0
    return x + 2 * y + 3 * z

# run: relax(np.linspace(0.0, 1.0, 6) ** 2, 3)
# run: relax(np.linspace(0.0, 1.0, 6) ** 2, 4)
# run: rotate3(np.arange(5.0), 4)
# run: rotate3(np.arange(5.0), 6)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_at, npr_for, npr_get, npr_jit, npr_load, npr_own, npr_range, npr_rotate, npr_rotated,
)


@npr_jit(mutated=('dst',))
def sweep(dst, src):
    npr_at(dst)[1:-1] = 0.5 * (src[2:] + src[:-2])


@npr_jit(mutated=('u',))
def relax(u, steps):
    cur = u  # the caller's buffer takes part in the swap
    nxt = jax.new_ref(npr_load(u).copy())
    def _loop__(_):
        sweep(nxt, cur[...])
        npr_rotate((cur, nxt), (nxt, cur))
    _range__ = npr_range(steps)
    npr_for(_range__, _loop__)
    cur, nxt = npr_rotated(_range__, (cur, nxt), (nxt, cur))
    npr_at(cur)[0] += 1.0
    return nxt[...].sum()


@npr_jit(mutated=('a',))
def rotate3(a, steps):
    b = npr_own(npr_load(a) + 1.0)
    c = npr_own(npr_load(a) * 2.0)
    x, y, z = a, b, c
    def _loop_k(k):
        npr_at(x)[0] += npr_get(y)[1] - npr_get(z)[2]
        npr_rotate((x, y, z), (y, z, x))
    _range_k = npr_range(steps)
    npr_for(_range_k, _loop_k)
    x, y, z = npr_rotated(_range_k, (x, y, z), (y, z, x))
    npr_at(y)[2] = -1.0
    return x[...] + 2 * y[...] + 3 * z[...]

# run: relax(np.linspace(0.0, 1.0, 6) ** 2, 3)
# run: relax(np.linspace(0.0, 1.0, 6) ** 2, 4)
# run: rotate3(np.arange(5.0), 4)
# run: rotate3(np.arange(5.0), 6)
