import numpy as np


def combine(a, b, out):
    np.multiply(a, b, out=out)
    np.add(out, a, out=out)     # out aliases an input
    np.clip(out, 0.0, 10.0, out=out)
    np.cumsum(a, out=b)

# run: combine(np.arange(4.0), np.full(4, 3.0), np.zeros(4))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_jit, npr_np_add, npr_np_clip, npr_np_cumsum, npr_np_multiply, npr_out


@npr_jit(mutated=('b', 'out'))
def combine(a, b, out):
    npr_out(out, npr_np_multiply(a, b[...]), ufunc='multiply')
    npr_out(out, npr_np_add(out[...], a), ufunc='add')     # out aliases an input
    npr_out(out, npr_np_clip(out[...], 0.0, 10.0), ufunc='clip')
    npr_out(b, npr_np_cumsum(a))

# run: combine(np.arange(4.0), np.full(4, 3.0), np.zeros(4))
