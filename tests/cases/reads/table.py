import numpy as np
from numpy import linalg


def stats(x):
    y = np.roll(x, 1) + np.where(x > 0, x, 0.0)
    z = np.concatenate([y, np.outer(x, x).ravel()])
    return np.argmax(z), linalg.norm(z), np.einsum("i,i->", x, x), np.pi * x.mean()

# run: stats(np.array([1.0, -2.0, 3.0]))
# output
import numpy as np
from numpy import linalg
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_jit, npr_np_argmax, npr_np_concatenate, npr_np_einsum, npr_np_linalg_norm, npr_np_mean,
    npr_np_outer, npr_np_where,
)


@npr_jit
def stats(x):
    y = jnp.roll(x, 1) + npr_np_where(x > 0, x, 0.0)
    z = npr_np_concatenate([y, npr_np_outer(x, x).ravel()])
    return npr_np_argmax(z), npr_np_linalg_norm(z), npr_np_einsum("i,i->", x, x), np.pi * npr_np_mean(x)

# run: stats(np.array([1.0, -2.0, 3.0]))
