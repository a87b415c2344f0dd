import numpy as np


def assemble(K, conn, ke):
    for e in range(conn.shape[0]):
        i = conn[e]
        np.add.at(K, (i[:, None], i[None, :]), ke)
    return K

# run: assemble(np.zeros((4, 4)), np.array([[0, 1], [1, 2], [2, 3]]), np.array([[1.0, -1.0], [-1.0, 1.0]]))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_for, npr_get, npr_jit, npr_range, npr_ufunc_at


@npr_jit(mutated=('K',))
def assemble(K, conn, ke):
    def _loop_e(e):
        i = npr_get(conn)[e]
        npr_ufunc_at('add', K, (i[:, None], i[None, :]), ke)
    npr_for(npr_range(conn.shape[0]), _loop_e)
    return K

# run: assemble(np.zeros((4, 4)), np.array([[0, 1], [1, 2], [2, 3]]), np.array([[1.0, -1.0], [-1.0, 1.0]]))
