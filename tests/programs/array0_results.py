"""np.array's 0-d results, returned to host code (tests/zero_d/test_array0_results.py)."""

import numpy as np


def make_counter():  # set-up code: no array argument, runs eagerly (run_as_written)
    c = np.array(8, dtype=np.int32)
    return c


def make_pair():
    return np.array(-0.25, dtype=np.float32), np.array(3.0)


def arrays_and_scalars(a):  # a compiled call: np.array of a reduction is an array, the reduction a scalar
    return np.array(a.sum()), a.sum(), np.array(a[0]), a[1] * 2.0


def script():  # a converted script's set-up and host code: the host loop writes the 0-d array
    c = make_counter()
    for i in range(3):
        c[...] += i
    x, y = make_pair()
    x[...] = 1.5
    return c, x, y
