"""Float -> integer casts (tests/dtypes/test_float_int_casts.py): the forms NumPy code casts in."""

import numpy as np


def astype_forms(x):
    return x.astype(np.int64), x.astype(np.int32), x.astype(np.uint8), np.floor(x).astype(int), x.astype("int16")


def image_to_uint8(img):
    return (img * 255).astype(np.uint8)


def array_with_dtype(x):
    return np.array(x, dtype=np.int32), np.asarray(x * 2, dtype=np.uint8), np.array(x, np.uint64)


def store_into_uint8(x):
    counts = np.zeros(x.shape[0], dtype=np.uint8)
    for i in range(x.shape[0]):
        counts[i] = x[i] * 2
    return counts


def store_slices(x):
    out = np.zeros(x.shape, dtype=np.int32)
    out[...] = x
    out[1:] = x[1:] * 3
    return out


def out_unsafe(x):
    o = np.zeros(x.shape, np.int64)
    np.multiply(x, 2.0, out=o, casting="unsafe")
    return o


def store_scalar_into_int8(x, i):
    a = np.zeros(4, dtype=np.int8)
    a[1] = x[i]
    return a


def store_scalar_into_int64_in_loop(x):
    a = np.zeros(x.shape[0], dtype=np.int64)
    for i in range(x.shape[0]):
        a[i] = x[i] + 1.0
    return a


def fill_int16(a, x):
    a.fill(x[0])
    return a


def cast_sum(x):
    return x.astype(np.int32).sum(), x.sum()


def weighted_by_cast(x):
    return (x * x.astype(np.int64)).sum()


def scalar_types(x):
    return np.int32(x), np.uint8(x), np.int64(x[0]), np.uint16(x[1])


def full_forms(x):
    return np.full(3, x[0], dtype=np.int8), np.full_like(x, x[1], dtype=np.int32), np.full(2, 300.7, np.uint8)


def reductions_with_dtype(x):
    return (np.sum(x, dtype=np.int32), np.cumsum(x, dtype=np.int64), x.sum(dtype=np.uint8),
            np.prod(x[3:5], dtype=np.int64), x.sum(0, np.uint16))


def linspace_int(x):
    return np.linspace(x[0], x[1], 5, dtype=int)


def list_with_dtype(x):
    return np.array([x[0], x[1]], dtype=np.int32), np.array([x[0], 2.5], dtype=np.uint8)


def python_int(x):
    return int(x[0]) + 1
