import numpy as np


def relax(u, tol, maxit):
    err = np.inf
    it = 0
    while err > tol and it < maxit:
        new = 0.5 * (u[2:] + u[:-2])
        err = np.max(np.abs(new - u[1:-1]))
        u[1:-1] = new
        it += 1
    return it

# run: relax(np.linspace(0.0, 1.0, 9) ** 2, 1e-4, 1000)
# run: relax(np.linspace(0.0, 1.0, 9) ** 2, 1e-4, 3)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_and, npr_at, npr_jit, npr_np_abs, npr_pyreturn, npr_while


@npr_jit(mutated=('u',))
def relax(u, tol, maxit):
    err = np.inf
    it = 0
    def _test_1(err, it):
        return npr_and(err > tol, it < maxit)
    def _body_1(err, it):
        new = 0.5 * (u[...][2:] + u[...][:-2])
        err = jnp.max(npr_np_abs(new - u[...][1:-1]))
        npr_at(u)[1:-1] = new
        it += 1
        return err, it
    err, it = npr_while(_test_1, _body_1, err, it)
    return npr_pyreturn(it, 'int')

# run: relax(np.linspace(0.0, 1.0, 9) ** 2, 1e-4, 1000)
# run: relax(np.linspace(0.0, 1.0, 9) ** 2, 1e-4, 3)
