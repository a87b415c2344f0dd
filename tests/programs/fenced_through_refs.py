"""Values that reach a decision through a store into an array (a Ref once translated), and a
literal zero added: tests/dtypes/test_fences_through_refs.py."""

import numpy as np


def chain_stored_then_cast(x):
    z = np.zeros(x.shape)
    z[...] = x + 0.1 + 0.7
    return z.astype(np.int64)


def quotient_stored_then_cast(x):
    z = np.zeros(x.shape)
    z[...] = x / 0.1
    return z.astype(np.int64)


def chain_by_op_assign_on_a_copy(x):
    z = x.copy()
    z += 0.1
    z += 0.7
    return z.astype(np.int64)


def chain_by_op_assign_on_the_argument(x):
    x += 0.1
    x += 0.7
    return np.floor(x)


def quotient_into_a_slice_then_masked(x, out):
    out[1:] = x[1:] / 0.3
    out[out < 10.0] = 0.0
    return out


def product_stored_then_floor(x, a):
    w = np.empty_like(x)
    w[...] = x * 0.7
    return np.floor(w + a)


def reciprocal_of_a_zero_added(x):
    return 1.0 / (x + 0.0)


def angle_of_a_zero_added(x):
    return np.arctan2(x + 0.0, -1.0)


def sign_of_a_zero_added_through_a_store(x):
    z = np.zeros(x.shape)
    z[...] = -x + 0.0
    return np.signbit(z)


def zero_d_reciprocal(x):
    t = x[0] + 0.0
    return 1.0 / t


def chain_on_a_slice_in_place(x):
    z = x.copy()
    z[1:] += 0.1
    z[1:] += 0.7
    return z.astype(np.int64)


def chain_through_out(x):
    z = np.empty_like(x)
    np.add(x, 0.1, out=z)
    z += 0.7
    return np.floor(z)


def chain_carried_by_a_loop_in_place(x):
    z = x.copy()
    for k in range(3):
        z += 0.1
    return z.astype(np.int64)


def quotients_stored_by_a_loop(x):
    z = np.zeros(x.shape)
    for i in range(x.shape[0]):
        z[i] = x[i] / 0.1
    return z.astype(np.int64)


def chains_stored_by_a_loop(x):
    z = np.zeros(x.shape)
    for i in range(x.shape[0]):
        z[i] = x[i] + 0.1 + 0.7
    return z.astype(np.int64)


def chain_under_a_mask(x):
    y = x - 0.1
    m = y > 0
    y[m] += 0.7
    return y.astype(np.int64)


def log_of_an_exp_stored(x):
    with np.errstate(all="ignore"):
        v = np.zeros_like(x)
        v[...] = np.exp(x)
        return np.log(v)


def exp_products_through_a_copy(x):
    with np.errstate(all="ignore"):
        v = np.exp(x)
        v *= np.exp(-x)
        return v


def root_of_a_square_stored(x):
    with np.errstate(all="ignore"):
        t = np.empty_like(x)
        t[:] = x * x
        return np.sqrt(t)


def root_of_a_square_in_place(x):
    with np.errstate(all="ignore"):
        v = x.copy()
        v *= v
        return np.sqrt(v)


def abs_compared_through_a_copy(x):
    with np.errstate(all="ignore"):
        b = np.abs(x).copy()
        return b >= 0


def exp2_products(x):
    with np.errstate(all="ignore"):
        return np.exp2(x) * np.exp2(-x)


def exp2_ratio(x):
    with np.errstate(all="ignore"):
        return np.exp2(x) / np.exp2(x)


def log_of_an_exp2(x):
    with np.errstate(all="ignore"):
        return np.log(np.exp2(x)), np.log2(np.exp2(x))


def chain_through_a_reversal(x):
    y = (x + 0.1)[::-1]
    return (y + 0.7).astype(np.int64)


def bins_of_an_arange_grid(x):
    e = np.arange(0, 300) * 0.1 + 0.1
    return np.searchsorted(e, x)


def cells_of_an_arange_grid(x):
    g = np.arange(x.shape[0]) * 0.1 + 0.7
    return (g * 10.0).astype(np.int64)


def chain_on_a_constant_grid(x):
    g = np.arange(x.shape[0]) / 10.0
    return (g + 0.1 + 0.7).astype(np.int64) + x[:1].astype(np.int64)


def quotient_stored_in_a_loop_of_n_trips(x, n):
    z = np.zeros(x.shape)
    for k in range(n):
        z[...] = x / 0.1
    return z.astype(np.int64)


def quotient_stored_under_a_branch(x):
    z = np.zeros(x.shape)
    if x[0] >= 0:
        z[...] = x / 0.1
    return z.astype(np.int64)


def chain_in_place_under_a_branch(x):
    z = x.copy()
    if x.sum() > 0:
        z += 0.1
        z += 0.7
    return z.astype(np.int64)
