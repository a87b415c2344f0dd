"""Programs for tests/python/test_conditional_expressions.py: conditional expressions and `and`/`or` values on
traced data (only the chosen operand is evaluated), short-circuit conditions, lambdas inside
masked stores."""
import numpy as np


def clipped_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s = s + (x[i] if x[i] > 0 else 0.0)
    return s


def guarded_read(x, idx):
    k = idx[0]
    # the unchosen operand would index out of bounds or divide by zero: never evaluated
    a = x[k] if k < x.shape[0] else -1.0
    b = 1.0 / x[1] if x[1] != 0 else 0.0
    return a, b


def bool_values(x):
    v = x[0] > 0 and x[1] > 0
    w = x[0] or x[1]
    z = x[2] and x[3]
    u = not x[0]
    t = x[1] if not x[2] else x[3]
    return v, w, z, u, t


def short_circuit_if(x, idx):
    k = idx[0]
    if k < x.shape[0] and x[k] > 0:
        x[0] = 5.0
    for i in range(4):
        if i < x.shape[0] and x[i] < 0:
            x[i] = 0.0
    return x


def weak_scalar(x32, x):
    t = 1.5 if x[0] > 0 else 2.5   # two Python floats: a Python float (weak) again
    return x32 * t


def mixed_types(xi):
    t = xi[0] if xi[1] > 0 else 0.5   # NumPy's int64 or a Python float: type depends on data
    return t * 2


def written_choice(x, y):
    z = x if x.sum() > 0 else y
    z[0] = 1.0
    return z


def ternary_of_arrays(x, y):
    out = np.zeros(3)
    for i in range(3):
        out = out + (x if y[i] > 0 else y * 2.0)
    return out


def static_ternary(x, size):
    n = 2 if size == "small" else 3
    return x[:n] * 2.0


def _soft(u, v):
    return np.sqrt(u) - v


def mask_lambda_div(a, b):
    f = lambda u, v: u / v  # noqa: E731
    a[b != 0] = f(a[b != 0], b[b != 0])
    return a


def mask_def_log(a, k):
    def g(u):
        return np.log(u) * k
    a[a > 0] = g(a[a > 0])
    a[a < -1] += _soft(-a[a < -1], 1.0)
    return a


def mask_not_elementwise(a):
    f = lambda u: u - u.mean()  # noqa: E731
    a[a > 0] = f(a[a > 0])
    return a


def dict_of_results(x, keys):
    out = {}
    for k in keys:
        out[k] = x[k] * 2
    x[0] = -1.0
    return out, x


def bound_in_one_branch(a, b):
    for k in range(2):
        if a.sum() > 1:
            continue
        v = b.copy()
    return v.max()


def condition_of_mixed_types(x, flags):
    n = 0
    for i in range(x.shape[0]):
        if x[i] > 0 and flags[i]:
            n += 1
        if x[i] < -5 or flags[i] and x[i] != 0:
            n += 10
    return n
