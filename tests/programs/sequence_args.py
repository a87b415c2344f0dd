"""Python sequences where NumPy takes an array (tests/library/test_sequence_args.py, issue 37 case 3):
ranges, lists, tuples, nested lists and Python scalars passed to translated NumPy functions, by
family. NumPy converts each as np.asarray does (int64 for a range, float64 for floats)."""
import numpy as np


def grids(x, n):
    X, Y = np.meshgrid(range(4), range(n))
    P, Q = np.meshgrid([0.5, 1.5], (1, 2, 3), indexing="ij")
    r = range(3)
    R, S = np.meshgrid(r, r)
    return X * x[0] + Y, P + Q, R - S


def creation(x, n):
    a = np.zeros_like([[1, 2], [3, 4]])
    b = np.ones_like((1.5, 2.5))
    c = np.full(3, [1.0, 2.0, 3.0])
    d = np.array(range(n)) * x[0]
    e = np.asarray([[1, 2], [3, 4]]) + x[:2]
    f = np.diag([1.0, 2.0, 3.0])
    g = np.full_like(range(3), 7)
    return a, b, c, d, e, f, g


def joining(x):
    a = np.stack([range(3), [4, 5, 6]])
    b = np.concatenate([x[:2], range(2), (7.5,)])
    c = np.hstack((range(2), [x[0]]))
    d = np.vstack([[1, 2], (3, 4)])
    e = np.atleast_2d([1.0, 2.0])
    f, g = np.broadcast_arrays([1, 2, 3], [[1], [2]])
    h = np.column_stack(([1, 2], range(2)))
    return a, b, c, d, e, f, g, h


def reductions(x):
    a = np.sum(range(5)) + x[0]
    b = np.prod((1, 2, 3))
    c = np.max([[1.5, 2.5], [0.5, 4.0]], axis=0)
    d = np.mean(range(4))
    e = np.cumsum([1, 2, 3])
    f = np.argmax([3, 9, 2])
    g = np.nanmax([1.0, np.nan, 3.0])
    h = np.any((0, 0, 1))
    k = np.count_nonzero(range(4))
    return a, b, c, d, e, f, g, h, k


def shaping(x):
    a = np.reshape(range(6), (2, 3))
    b = np.transpose([[1, 2], [3, 4]])
    c = np.flip((1.0, 2.0, 3.0))
    d = np.roll(range(4), 1)
    e = np.tile([1, 2], 2)
    f = np.pad([1.0, 2.0], 1)
    g = np.ravel([[1, 2], [3, 4]]) + x[0]
    h = np.squeeze([[1.0], [2.0]])
    return a, b, c, d, e, f, g, h


def ufuncs(x):
    a = np.sqrt([4, 9, 16])
    b = np.maximum(range(3), x[:3])
    c = np.add((1, 2, 3), 0.5)
    d = np.where([True, False, True], range(3), x[:3])
    e = np.clip(range(5), 1, 3)
    f = np.interp(2.5, [1, 2, 3], [10.0, 20.0, 30.0])
    g = np.dot([1.0, 2.0], [[1.0], [2.0]])
    h = np.floor([1.5, -1.5]) + 2
    return a, b, c, d, e, f, g, h
