import numpy as np


def moving_sum(x, w, out):
    for i in range(x.shape[0]):
        out[i] = x[i:i + w].sum()           # shorter windows at the end, as NumPy clips them
    for i in range(1, x.shape[0] - 1):
        out[i] += (x[i - 1:i + 2] * 0.5).sum()


def lu(A):
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])


def csr_rows(indptr, indices, data, v, y):
    for i in range(indptr.shape[0] - 1):
        y[i] = data[indptr[i]:indptr[i + 1]] @ v[indices[indptr[i]:indptr[i + 1]]]

# run: moving_sum(np.arange(6.0), 3, np.zeros(6))
# run: lu(np.array([[4.0, 1.0, 2.0], [1.0, 5.0, 1.0], [2.0, 1.0, 6.0]]))
# run: csr_rows(np.array([0, 2, 2, 5]), np.array([0, 2, 1, 0, 2]), np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([1.0, -1.0, 0.5]), np.zeros(3))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_at, npr_for, npr_get, npr_jit, npr_lane, npr_np_outer, npr_range, npr_vfor, npr_win,
)


@npr_jit(mutated=('out',))
def moving_sum(x, w, out):
    def _loop_i(i):
        npr_at(out)[i] = npr_get(x)[npr_win(i, w)].sum()           # shorter windows at the end, as NumPy clips them
    def _lanes_i(i, _out_at_i):
        npr_at(_out_at_i)[()] = npr_get(x)[npr_win(i, w)].sum()           # shorter windows at the end, as NumPy clips them
    npr_vfor(npr_range(x.shape[0]), _loop_i, _lanes_i, (out, (npr_lane,)))
    def _loop_i(i):
        npr_at(out)[i] += (npr_get(x)[npr_win(i, 3, -1)] * 0.5).sum()
    def _lanes_i(i, _out_at_i):
        npr_at(_out_at_i)[()] += (npr_get(x)[npr_win(i, 3, -1)] * 0.5).sum()
    npr_vfor(npr_range(1, x.shape[0] - 1), _loop_i, _lanes_i, (out, (npr_lane,)))


@npr_jit(mutated=('A',))
def lu(A):
    n = A.shape[0]
    def _loop_k(k):
        npr_at(A)[k + 1:, k] /= npr_get(A)[k, k]
        npr_at(A)[k + 1:, k + 1:] -= npr_np_outer(npr_get(A)[k + 1:, k], npr_get(A)[k, k + 1:])
    npr_for(npr_range(n), _loop_k)


@npr_jit(mutated=('y',), items=('v',))
def csr_rows(indptr, indices, data, v, y):
    def _loop_i(i):
        npr_at(y)[i] = npr_get(data)[npr_get(indptr)[i]:npr_get(indptr)[i + 1]] @ npr_get(v)[npr_get(indices)[npr_get(indptr)[i]:npr_get(indptr)[i + 1]]]
    def _lanes_i(i, _y_at_i):
        npr_at(_y_at_i)[()] = npr_get(data)[npr_get(indptr)[i]:npr_get(indptr)[i + 1]] @ npr_get(v)[npr_get(indices)[npr_get(indptr)[i]:npr_get(indptr)[i + 1]]]
    npr_vfor(npr_range(indptr.shape[0] - 1), _loop_i, _lanes_i, (y, (npr_lane,)))

# run: moving_sum(np.arange(6.0), 3, np.zeros(6))
# run: lu(np.array([[4.0, 1.0, 2.0], [1.0, 5.0, 1.0], [2.0, 1.0, 6.0]]))
# run: csr_rows(np.array([0, 2, 2, 5]), np.array([0, 2, 1, 0, 2]), np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([1.0, -1.0, 0.5]), np.zeros(3))
