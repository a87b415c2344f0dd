"""Python operators between values of different dtypes: NumPy's promotion (int64 + float32 is
float64), where jax.numpy's differs (tests/dtypes/test_promotion.py)."""

import numpy as np


def all_pairs(i16, i32, i64, u16, u32, u64, f16, f32, c64):
    # each pair where NumPy and jax.numpy promote differently, arrays and NumPy scalars
    return (i16 + f16, f16 - i32, i64 * f16, u16 + f16, f16 < u32, u64 + f16, i32 + f32,
            f32 - i64, u32 * f32, f32 < u64, i32 + c64, c64 - i64, u32 * c64, c64 == u64,
            i64[0] + f32[0], f32[1] < i64[1], u16[2] * f16[2], c64[0] + u32[0])


def operators(x, y):
    # arrays and NumPy scalars (x[0], y[1]) both ways round; comparisons in NumPy's common type
    s = x[0] * 1
    s += y[1]
    t = y * 1
    t += x  # in place: y's dtype kept, computed in NumPy's result type
    return (x + y, y - x, x * y, y / x, x < y, y == x, x >= y, x[0] + y[0], y[1] * x[1],
            x[2] < y[2], x[0] ** y, y // x, x % y, s, t, x @ y)


def complex_operators(x, y):
    s = x[0] * 1
    s += y[1]
    return x + y, y / x, x == y, x[0] * y[0], x[0] ** y[0], s, x @ y


def in_a_loop(x, y, n):
    out = np.zeros(n)
    acc = y[0] * 0
    count = 0
    for i in range(n if 0 <= n < 10 else 0):  # a chained comparison (static)
        out[i] = x[i] * y[i] + x[i]
        acc = acc + x[i] * y[i]
        if x[i] > y[i]:
            count += 1
    return out, acc, count


def numpy_scalars(x, n):
    return np.float32(2) * np.arange(n), np.float32(0.1) * x, x - np.float16(1), x < np.float32(16777216)


def _combine(a, b):
    return a * b + a


def calls_a_helper(x, y):
    return _combine(x, y), max(x[0] * y[0], y[1] * x[1])


def largest(x, y):
    return max(x[0], y[0])


def either_value(x, y):
    v = x[0] if x[1] > 0 else 0.0  # a NumPy float64 or a Python float, as the data picks
    return (v * 2.0) * x + v


def either_meets_float32(x, y):
    v = x[0] if x[1] > 0 else 0.0
    return -(v * 2.0) * y  # float64 or float32 in NumPy: refused


# -- operators where jax.numpy's answer differs from NumPy's on one dtype -----------------------
def python_int_out_of_range(x):
    return x < 300, 300 > x, x > -1, -1 <= x, x == 300, x != 256, x <= 255


def python_int_overflows(x):
    return x + 300


def integer_true_divide(x):
    y = x.astype(np.int32)
    return x / 255, x / x.max(), (y + y) / 2, y / y, (x > 0) / 2


def square_root_power(x):
    return x ** 0.5, x[1:] ** 0.5 + 1.0


def int_array_and_python_float(x, y):
    """An integer array (or NumPy integer) and a Python float: NumPy's float64 is strong, so a
    later operator with a float16 `y` stays float64 (jax.numpy's float64 was weakly typed and
    gave float16)."""
    grid = (np.arange(3) - 2.0) * y.max()
    one = (x[0] - 2.0) * y[0]
    scaled = np.arange(3) * 2.0 * y[0]
    return grid, one, scaled
