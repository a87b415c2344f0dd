"""Programs for tests/python/test_closures.py: nested functions and lambdas (issue 19)."""

import numpy as np


def closure_time_loop(u, n):
    c = 0.1

    def loop_body(grid):  # writes its argument and reads `c` from the closure
        grid[1:-1] += c * (grid[2:] - 2.0 * grid[1:-1] + grid[:-2])

    for _ in range(n):
        loop_body(u)
    return u.sum()


def closure_writes_captured(a):
    out = np.zeros(a.shape[0])

    def compute(i):  # writes the captured `out`, calls another helper defined after it
        out[i] = a[i].sum() * scale(i)

    def scale(i):
        return 2.0 + i

    for i in range(a.shape[0]):
        compute(i)
    return out


def lambdas(x, y):
    dtanh = lambda v: 1 - np.tanh(v) ** 2
    mix = lambda p, q=0.5: p * q + y
    return dtanh(x) + mix(x) + mix(x, 2.0)


def late_binding(u):
    k = 1.0

    def add():
        u[:] += k

    add()
    k = 2.0
    add()
    return u


def nested_twice(u, s):
    def outer_helper(v):
        w = 3.0

        def inner_helper():
            v[0] = w * s[1]

        inner_helper()

    outer_helper(u)
    return u


def captured_and_passed(u):
    def g(v):  # `v` and the captured `u` are one buffer
        v[0] = u[1]
    g(u)
    return u


def escapes(u):
    g = lambda x: x * 2
    return np.array(list(map(g, u)))


def recursive(u, n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)
    return u * fact(n)


def called_before_def(u):
    u[0] = h()

    def h():
        return 1.0
    return u


def rebound_by_comprehension(u):
    i = 2

    def get():
        return u[i]
    return sum([get() for i in range(3)])


def defined_in_loop(u):
    for k in range(2):
        def g():
            return k
    u[0] = g()  # after the loop: the last pass's g (none when the loop does not run)
    return u


def deleted_in_helper(u):
    def g(v):
        tmp = v * 2
        del tmp
    g(u)
    return u


# ---- builtins on array values ---------------------------------------------------------------
def builtin_max_min(x):
    return max(1.0, x.max()), min(x[0], x[1]), max(x[0], x[1], x[2]), min(x[2], 0.0)


def builtin_max_in_loop(x):
    m = x[0]
    for i in range(x.shape[0]):
        m = max(m, x[i] * 2.0)
    return m


def builtin_max_of_array(x):
    return max(x), min(x)


def builtin_any_all(x):
    return any(x > 1.0), all(x), any(x), all(x >= 0.0)


def builtin_max_of_rows(x):
    return max(x[0], x[1])
