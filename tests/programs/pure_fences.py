"""One program per kind of XLA rewrite np2ref fences (rt/divisions.py), and the -0.0 folds of a
zeros array added to and of a sum of one element: each gives another answer than NumPy's where
XLA rewrites it. tests/dtypes/test_pure_fences.py runs them through the compiled call and
through `.pure` under the caller's jax.jit, jax.vmap and derivatives."""

import numpy as np


def bool_factor(x, b):
    with np.errstate(all="ignore"):  # nan * False is nan; XLA's select(b, x, 0) made it 0.0
        return x * b, 1.0 - x[0] * b[0]


def zero_add(x):
    with np.errstate(all="ignore"):  # -0.0 + 0.0 is 0.0: 1 / that is inf, XLA's x + 0.0 -> x gave -inf
        return 1.0 / (x + 0.0)


def quotient_cells(x):
    return (x / 0.1).astype(np.int64)  # 0.3 / 0.1 is 2.9999999999999996; XLA's 0.3 * 10.0 is 3.0


def constant_chain(x):
    return (x + 0.1 + 0.7).astype(np.int64)  # two roundings; XLA's x + (0.1 + 0.7) one


def log_of_exp(x):
    with np.errstate(all="ignore"):  # np.log(np.exp(800.0)) is inf; XLA's log(exp(A)) -> A
        return np.log(np.exp(x))


def abs_at_least_zero(x):
    return np.abs(x) >= 0.0  # NaN: False; XLA's abs(A) >= 0 -> true


def zeros_added(x):
    y = np.zeros(x.shape)  # 0.0 + -0.0 is 0.0; XLA folds zeros + v to v (fuzz_c29dfde049)
    y += x
    return y


def zeros_in_loop(x):
    y = np.zeros((3, 1))
    for i in range(1):
        y += x[:, i:i + 1] * 2.0
    return y


def one_row_sum(p):
    return p[1:2].sum(axis=0)  # NumPy's sum starts at 0.0; XLA's sum of one element is it (fuzz_0895e82df5)


def one_element_sums(p):
    q = p[:1, :1]
    return np.sum(q), q.mean(axis=1), np.nansum(p[:1], axis=0), np.add.reduce(p[:, :1], axis=1)


def leading_rows_sum(p):
    return p.sum(axis=0)  # a short leading axis of long rows: summed row by row (rt/peepholes.py)


def cells_weighted(x):
    return x * (x / 0.1).astype(np.int64)  # its derivative is the cell: 2 at 0.3, XLA's 3


def scatter_into_int(a, x):
    np.add.at(a, np.array([0], dtype=np.int64), np.multiply(a, 5))  # a concrete int array under a jit
    return x * 2.0
