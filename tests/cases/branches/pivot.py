import numpy as np


def lu_pivot(A, perm):
    n = A.shape[0]
    for k in range(n - 1):
        p = k
        for i in range(k + 1, n):
            if abs(A[i, k]) > abs(A[p, k]):
                p = i
        if p != k:
            tmp = A[k].copy()
            A[k] = A[p]
            A[p] = tmp
            t = perm[k]
            perm[k] = perm[p]
            perm[p] = t
        for i in range(k + 1, n):
            A[i, k] = A[i, k] / A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= A[i, k] * A[k, j]

# run: lu_pivot(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]), np.arange(3))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_get, npr_if, npr_jit, npr_range, npr_sub


@npr_jit(mutated=('A', 'perm'))
def lu_pivot(A, perm):
    n = A.shape[0]
    def _loop_k(k):
        p = k
        def _loop_i(i, p):
            def _then_1(p):
                p = i
                return p
            def _else_1(p):
                pass
                return p
            p = npr_if(abs(npr_get(A)[i, k]) > abs(npr_get(A)[p, k]), _then_1, _else_1, p)
            return p
        p = npr_for(npr_range(k + 1, n), _loop_i, p)
        def _then_2():
            tmp = npr_get(A)[k].copy()
            npr_at(A)[k] = npr_sub(A, p)
            npr_at(A)[p] = tmp
            t = npr_sub(perm, k)
            npr_at(perm)[k] = npr_sub(perm, p)
            npr_at(perm)[p] = t[...]
        npr_if(p != k, _then_2, None)
        def _loop_i(i):
            npr_at(A)[i, k] = npr_get(A, feeds_store=True)[i, k] / npr_get(A, feeds_store=True)[k, k]
            def _loop_j(j):
                npr_at(A)[i, j] -= npr_get(A)[i, k] * npr_get(A)[k, j]
            npr_for(npr_range(k + 1, n), _loop_j)
        npr_for(npr_range(k + 1, n), _loop_i)
    npr_for(npr_range(n - 1), _loop_k)

# run: lu_pivot(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]), np.arange(3))
