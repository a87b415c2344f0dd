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


@npr_jit
def stats(x):
    y = jnp.roll(x, 1) + jnp.where(x > 0, x, 0.0)
    z = jnp.concatenate([y, jnp.outer(x, x).ravel()])
    return jnp.argmax(z), jnp.linalg.norm(z), jnp.einsum("i,i->", x, x), np.pi * x.mean()

# run: stats(np.array([1.0, -2.0, 3.0]))
