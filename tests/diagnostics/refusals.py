import numpy as np
from scipy import ndimage

GRID = np.zeros(8)


def writes_global(i):
    GRID[i] = 1.0  # E: NPR202


def uses_while(u):
    while u[0] > 0:  # E: NPR011
        u = u[1:]
        u[0] -= 1.0


def hypot_at(a, idx):
    np.hypot.at(a, idx, 2.0)  # E: NPR101


def partition(a):
    a.partition(2)  # E: NPR102


def unknown_numpy(a):
    return np.nonzero(a)  # E: NPR004


def other_library(u):
    u[...] = ndimage.laplace(u)  # E: NPR021


def flip_write(u):
    np.flip(u)[0] = 1.0  # E: NPR205


def rows(a):
    for row, w in zip(a, [1.0, 2.0]):  # E: NPR204
        row *= w


def with_global():
    global GRID  # E: NPR010
    GRID = GRID + 1


def inner(a):  # (not a bare `return a[...]`, which is inlined where written: frontend/view_helpers.py)
    v = a[1:-1]
    return v


def writes_returned_view(u):
    v = inner(u)  # E: NPR203
    v[0] = 1.0


def returns_first(a, b):
    b[0] = 0.0
    return a


def rebinds_to_the_other_argument(u, w, steps):
    for _ in range(steps):  # E: NPR033
        w = returns_first(u, w)  # E: NPR203
        u, w = w, u


def nested(u):
    def helper(x):  # E: NPR014
        return x if x < 1 else helper(x - 1)
    u[0] = helper(1.0)


def calls_unknown(u):
    u[0] = mystery(u)  # E: NPR003


def reads_undefined(u, flag):
    if flag > 0:
        u[:k_never_bound] = 2.0  # E: NPR019


async def awaits_nothing(u):  # E: NPR018
    u[0] = 1.0


def copyto_through_own_transpose(a):
    np.copyto(a, 0.0, where=a.T > 0)
    np.copyto(a, False, where=a.T)  # E: NPR126


def smooth_into(dst, src):
    dst[1:-1] = 0.5 * (src[2:] + src[:-2])


def damp(w, f):
    w *= f


def smooth_then_edge(dst, src):
    dst[1:-1] = 0.5 * (src[2:] + src[:-2])
    dst[0] = src[-1]


def passes_its_own_flip(u):
    smooth_then_edge(u, np.flip(u))  # E: NPR201


def damps_a_copy(u0):
    u = u0.copy()
    damp(u, 0.9)  # a fresh copy and a literal: nothing shared, nothing reported
    smooth_into(u, u0 + 1.0)
    return u


def reads_a_view_of_a_temporary(u0, flag):
    u = u0.copy()
    w = u
    u[0] = 1.0
    if flag:
        w = inner(u0 * 3.0)  # the temporary is never written: nothing reported
    return w.sum() + u.sum()


def unpacks_into_a_writer(u, f):
    damp(*(u, f))  # E: NPR208


def unpacks_keywords_into_a_writer(u):
    damp(u, **{"f": 0.5})  # E: NPR208


def unpacks_into_a_reader(u, pair):
    u[0] = np.hypot(*pair)
    return smooth_sum(*(u, u))  # smooth_sum writes nothing and returns no view: nothing reported


def smooth_sum(a, b):
    return (a + b).sum()


def ndarray_over_a_buffer(x):
    return np.ndarray((2,), dtype=x.dtype, buffer=x, offset=8)  # E: NPR004


def ndarray_with_strides(x):
    return np.ndarray((2,), np.float64, x, 0, (16,))  # E: NPR004


def structured_fields(n):
    Z = np.zeros(n, [('U', float), ('V', float)])  # E: NPR025
    U = Z['U']
    U += 1
    return Z


def structured_dtype_object(x):
    dt = np.dtype({'names': ['a', 'b'], 'formats': [float, int]})  # E: NPR025
    return x.view('f8,f8')  # E: NPR025
