import numpy as np


def csr_matvec(indptr, indices, data, x, y):
    for i in range(indptr.shape[0] - 1):
        acc = 0.0
        for k in range(indptr[i], indptr[i + 1]):   # bounds read from the data
            acc += data[k] * x[indices[k]]
        y[i] = acc

# run: csr_matvec(np.array([0, 2, 2, 5]), np.array([0, 2, 1, 0, 2]), np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([1.0, -1.0, 0.5]), np.zeros(3))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_fold_for, npr_get, npr_jit, npr_lane, npr_range, npr_vfor


@npr_jit(mutated=('y',), items=('indices', 'data', 'x'))
def csr_matvec(indptr, indices, data, x, y):
    def _loop_i(i):
        acc = 0.0
        def _loop_k(k, acc):
            acc += npr_get(data)[k] * npr_get(x)[npr_get(indices)[k]]
            return acc
        def _reads_k(k):
            return (npr_get(data)[k], npr_get(x)[npr_get(indices)[k]])
        def _trip_k(_read_k):
            return _read_k[0] * _read_k[1]
        def _step_k(acc, _value_k):
            acc += _value_k
            return acc
        acc = npr_fold_for(npr_range(npr_get(indptr)[i], npr_get(indptr)[i + 1]), _loop_k, _reads_k, _trip_k, _step_k, acc)
        npr_at(y)[i] = acc
    def _lanes_i(i, _y_at_i):
        acc = 0.0
        def _loop_k(k, acc):
            acc += npr_get(data)[k] * npr_get(x)[npr_get(indices)[k]]
            return acc
        def _reads_k(k):
            return (npr_get(data)[k], npr_get(x)[npr_get(indices)[k]])
        def _trip_k(_read_k):
            return _read_k[0] * _read_k[1]
        def _step_k(acc, _value_k):
            acc += _value_k
            return acc
        acc = npr_fold_for(npr_range(npr_get(indptr)[i], npr_get(indptr)[i + 1]), _loop_k, _reads_k, _trip_k, _step_k, acc)
        npr_at(_y_at_i)[()] = acc
    npr_vfor(npr_range(indptr.shape[0] - 1), _loop_i, _lanes_i, (y, (npr_lane,)))

# run: csr_matvec(np.array([0, 2, 2, 5]), np.array([0, 2, 1, 0, 2]), np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([1.0, -1.0, 0.5]), np.zeros(3))
