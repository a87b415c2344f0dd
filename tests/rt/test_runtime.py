# Differential tests of np2ref.rt (the runtime package converted code imports): each helper runs on a jax.Ref
# (eagerly, and for a representative subset inside jax.jit with the ref created
# inside) and NumPy runs the same operation on a copy; values, shapes and
# dtypes must agree exactly, and where NumPy raises the runtime must raise the
# same exception type with the same message.
import ast
import operator
import re
import sys
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from np2ref.rt import (
    NprView, npr_at, npr_copyto, npr_fill, npr_fill_diagonal, npr_load, npr_out, npr_own,
    npr_place, npr_put, npr_putmask, npr_ravel, npr_reshape, npr_sort, npr_sub, npr_swapaxes,
    npr_transpose, npr_ufunc_at, npr_value, npr_where_store)

# 10 generated cases a property (20 before; the seven properties 10.5 -> 7.0 s of CPU, each new
# index a new XLA compile); the @example cases of each test run whatever the count
HYP = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(autouse=True)
def x64():
    with jax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


class J:
    """A JAX value built at test time (under x64), not at collection time."""

    def __init__(self, value, dtype=None):
        self.value, self.dtype = value, dtype

    def __repr__(self):
        return f"J({self.value!r})"


def lazy(v):
    return jnp.asarray(v.value, v.dtype) if isinstance(v, J) else v


def same(expected, got):
    got = np.asarray(got)
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape), (got.dtype, got.shape, expected)
    assert np.array_equal(got, expected, equal_nan=expected.dtype.kind in "fc"), (expected, got)


def on_ref(a, op):
    r = jax.new_ref(jnp.asarray(a))
    op(r)
    return np.asarray(jax.freeze(r))


def on_ref_jit(a, op):
    def f(x):
        r = jax.new_ref(x)
        op(r)
        return jax.freeze(r)
    return np.asarray(jax.jit(f)(jnp.asarray(a)))


def check(a, np_op, ref_op, jit=False):
    """np_op on a copy of a vs ref_op on a Ref of a: equal results, or equal errors."""
    b = np.array(a, copy=True)
    try:
        np_op(b)
    except Exception as e:  # noqa: BLE001 - the point is to match whatever NumPy raises
        with pytest.raises(type(e)) as info:
            on_ref(a, ref_op)
        assert str(info.value) == str(e)
        return e
    same(b, on_ref(a, ref_op))
    if jit:
        same(b, on_ref_jit(a, ref_op))
    return None


def setitem(idx, v):
    def np_op(b):
        b[idx] = v

    def ref_op(r):
        npr_at(r)[idx] = v
    return np_op, ref_op


A46 = np.arange(24.0).reshape(4, 6)
A345 = np.arange(60).reshape(3, 4, 5)
M = np.array([True, False, True, True])

# ---- setitem: every index kind ------------------------------------------------------

SET_CASES = [
    (A46, 1, 7.0), (A46, -1, np.arange(6.0)), (A46, (2, -3), 5.0), (A46, (slice(1, 3), 2), [1.0, 2.0]),
    (A46, (slice(None, None, -1), 2), np.arange(4.0)), (A46, (slice(-2, -12, -1), slice(None, None, -2)), 9.0),
    (A46, slice(10, 12), 3.0), (A46, (slice(-100, 100, 3), slice(None, None, -4)), 4.0), (A46, slice(3, 3), 1.0),
    (A46, (slice(2, 0), 1), np.zeros(0)), (A46, Ellipsis, 1.0), (A46, (Ellipsis, -1), -1.0), (A46, (1, Ellipsis), 2.0),
    (A46, None, np.arange(6.0)), (A46, (None, 1, None), 3.0), (A46, (slice(None), None, 2), [[1.0]] * 4),
    (A46, [0, 2], 8.0), (A46, [], 8.0), (A46, [3, 0, 3, 3], np.arange(4.0)[:, None]), (A46, np.array([[1], [3]]), 6.0),
    (A46, (np.array([1, 1, 3]), slice(1, None, 2)), 9.0), (A46, (slice(None), [0, 0, 5]), np.arange(3.0)),
    (A46, ([0, 1], [1, 2]), [5.0, 6.0]), (A46, (1, [0, -1]), 7.0), (A46, M, 5.0), (A46, (M, slice(2)), [1.0, 2.0]),
    (A46, (slice(None), np.arange(6) % 2 == 0), 0.5), (A46, A46 > 10, -2.0), (A46, (Ellipsis, [0, 1]), 1.0),
    (A345, (0, slice(None), [1, 2]), np.arange(8).reshape(2, 4)), (A345, (slice(None), 0, [1, 2]), 7),
    (A345, ([0, 2], slice(None), [1, 2]), 3), (A345, ([[0], [2]], slice(None, None, -1), [1, 2, 3]), 4),
    (A345, (slice(None), [[0], [3]], [1, 2]), 5), (A345, (None, [0, 1], None, [1, 1]), 6),
    (A345, (Ellipsis, [2, 2], slice(1, 3)), 1), (A345, (1, Ellipsis, None), 8), (A345, (slice(None), M), 9),
    (np.array(5.0), (), 2.0), (np.array(5.0), Ellipsis, 3.0), (np.array(5.0), None, 4.0), (np.zeros((0, 3)), 0, 1.0),
    (np.zeros((0, 3)), slice(None), 1.0), (np.arange(5.0), np.int64(-2), 1.0), (np.arange(5.0), np.array(3), 1.0),
    (A345, (slice(None), [0, 1], Ellipsis, 0), 1),  # an empty Ellipsis still parts the advanced indices
    (np.zeros(3, np.int32), [0, 1], np.int64(2 ** 33 + 5)),  # advanced: an array cast (wraps)
]


@pytest.mark.parametrize("k", range(len(SET_CASES)), ids=[f"set{k}" for k in range(len(SET_CASES))])
def test_setitem_index_kinds(k):
    a, idx, v = SET_CASES[k]
    check(a, *setitem(idx, v), jit=k % 2 == 0)  # and under jit for every other case


ERR_CASES = [
    (A46, 4, 1.0), (A46, (0, -7), 1.0), (A46, (1, 2, 3), 1.0), (A46, np.array([True, False]), 1.0),
    (A46, 1.0, 1.0), (A46, [1, 5], 1.0), (A46, (Ellipsis, Ellipsis), 1.0), (A46, slice(0, 2), np.ones(3)),
    (A46, [0, 1], np.ones(4)), (A46, (slice(0, 2), [0, 1]), np.ones((3, 2))), (A46, (1, 2), np.ones(1)),
    (A46, (1, 2), [1.0]), (A46, 0, np.ones((2, 6))), (np.zeros(3, np.int32), 0, 2 ** 40),
    (np.zeros(3, np.int32), 0, np.nan), (np.zeros(3, np.uint8), slice(None), -1), (np.zeros((0, 3)), 0, 1.0),
    (np.zeros(3, np.int32), slice(None), np.int64(2 ** 33 + 5)),  # basic: a NumPy scalar must fit
]


@pytest.mark.parametrize("a,idx,v", ERR_CASES, ids=[f"err{k}" for k in range(len(ERR_CASES))])
def test_setitem_errors_match_numpy(a, idx, v):
    b = np.array(a)
    np_op, ref_op = setitem(idx, v)
    with pytest.raises(Exception):
        np_op(b)
    assert check(a, np_op, ref_op) is not None


def test_setitem_leading_ones_dropped_and_ref_values():
    check(A46, *setitem(slice(0, 2), np.ones((1, 1, 2, 6))))
    check(A46, *setitem(0, np.ones((1, 6))))
    src = jax.new_ref(jnp.arange(6.0) * 10)  # Ref and view values are loaded at store time
    check(A46, setitem(1, np.arange(6.0) * 10)[0], setitem(1, src)[1])
    check(A46, setitem((slice(None), 1), np.arange(4.0) * 10)[0], setitem((slice(None), 1), npr_sub(src, slice(0, 4)))[1])


@pytest.mark.parametrize("dtype,v", [
    (np.int32, 2.7), (np.int32, -2.7), (np.int32, np.array([1.9, -1.9, 3.5])), (np.int32, np.int64(2 ** 33 + 5)),
    (np.int32, np.array([2 ** 40 + 1, -(2 ** 35) - 3])), (np.uint8, np.array([-1, 300])), (np.bool_, 0.5),
    (np.bool_, np.array([0.0, -2.0, 3.0])), (np.float32, 1e300), (np.float32, 1 / 3), (np.int8, True),
    (np.complex128, 2), (np.float64, np.array([1 + 0j, 2 - 0j, 3 + 0j]).real),
])
def test_setitem_casts_like_numpy(dtype, v):
    a = np.zeros(3, dtype)
    check(a, *setitem(slice(None), v), jit=True)
    check(a, setitem(slice(None), np.asarray(v))[0], setitem(slice(None), jnp.asarray(v))[1], jit=True)


# ---- duplicates and traced indices -------------------------------------------------------

@jax.jit
def _set_traced(x, idx, v):
    r = jax.new_ref(x)
    npr_at(r)[idx] = v
    return jax.freeze(r)


@jax.jit
def _iadd_traced(x, idx, v):
    r = jax.new_ref(x)
    npr_at(r)[idx] += v
    return jax.freeze(r)


def _jit_store(store):
    def f(x, *args):
        r = jax.new_ref(x)
        store(r, *args)
        return jax.freeze(r)
    return jax.jit(f)


_set_rows = _jit_store(lambda r, rows, v: npr_at(r).__setitem__((rows, slice(None)), v))
_set_row_tail = _jit_store(lambda r, i, v: npr_at(r).__setitem__((i, slice(1, None)), v))


@HYP
@given(st.lists(st.integers(-6, 5), max_size=8), st.integers(0, 1000))
def test_duplicates_last_wins(idx, seed):
    vals = np.random.default_rng(seed).normal(size=len(idx))
    a = np.arange(6.0)
    b = a.copy()
    b[idx] = vals
    same(b, on_ref(a, setitem(idx, vals)[1]))
    same(b, _set_traced(jnp.asarray(a), jnp.asarray(idx, np.int64), jnp.asarray(vals)))
    c = a.copy()
    c[idx] += vals
    same(c, _iadd_traced(jnp.asarray(a), jnp.asarray(idx, np.int64), jnp.asarray(vals)))


@HYP
@given(st.lists(st.integers(-4, 3), min_size=1, max_size=5), st.lists(st.integers(-6, 5), min_size=1, max_size=5))
def test_duplicates_2d_pairs_traced(rows, cols):
    n = min(len(rows), len(cols))
    rows, cols = np.array(rows[:n]), np.array(cols[:n])
    v = np.arange(n, dtype=float) + 100
    b = A46.copy()
    b[rows, cols] = v
    same(b, _set_traced(jnp.asarray(A46), (jnp.asarray(rows), jnp.asarray(cols)), jnp.asarray(v)))
    b = A46.copy()
    b[rows, :] = v[:, None]
    same(b, _set_rows(jnp.asarray(A46), jnp.asarray(rows), jnp.asarray(v)[:, None]))


def test_traced_scalar_and_mask():
    a = jnp.asarray(A46)
    for i in (0, 2, -1, -4):
        b = A46.copy()
        b[i, 1:] = 5.0
        same(b, _set_row_tail(a, jnp.int64(i), 5.0))
    b = A46.copy()
    b[A46 > 7] = -1.0
    same(b, _set_traced(a, jnp.asarray(A46 > 7), -1.0))
    b = A46.copy()
    b[M] = 2.0
    same(b, _set_rows(a, jnp.asarray(M), jnp.ones(1) * 2))
    c = A46.copy()
    c[A46 > 7] *= 3
    same(c, on_ref_jit(A46, lambda r: npr_at(r).__setitem__(jnp.asarray(A46) > 7, npr_at(r)[0].__imul__(3))))
    with pytest.raises(NotImplementedError, match="NPR104"):
        _set_traced(a, jnp.asarray(M), jnp.ones(6))
    with pytest.raises(NotImplementedError, match="NPR104"):
        _jit_store(lambda r, m: npr_at(r).__setitem__((m, 0), 1.0))(a, jnp.asarray(M))


def test_not_implemented_indices():
    with pytest.raises(NotImplementedError, match="NPR111"):  # a traced step
        _jit_store(lambda r, i: npr_at(r).__setitem__(slice(0, 4, i), 1.0))(jnp.zeros(4), 1)
    # a static step with traced bounds is a masked store (windows_more.py)
    got = _jit_store(lambda r, i: npr_at(r).__setitem__(slice(i, i + 4, 2), 1.0))(jnp.zeros(5), 1)
    assert np.asarray(got).tolist() == [0.0, 1.0, 0.0, 1.0, 0.0]
    with pytest.raises(NotImplementedError, match="NPR107"):
        on_ref(np.zeros(3), setitem(True, 1.0)[1])


@HYP
@given(st.tuples(*[st.one_of(st.none(), st.integers(-9, 9))] * 3), st.tuples(*[st.one_of(st.none(), st.integers(-9, 9))] * 3),
       st.sampled_from([None, 1, 2, -1, -2, 3]), st.sampled_from([None, 1, -1, -3]))
def test_random_basic_slices(start, stop, step0, step1):
    idx = (slice(start[0], stop[0], step0), slice(start[1], stop[1], step1))
    check(A46, *setitem(idx, A46[idx] * 2))
    check(A46, lambda b: b.__setitem__(idx, b[idx] - 7), lambda r: npr_at(r).__setitem__(idx, npr_at(r)[idx].__isub__(7)))


# ---- op= -------------------------------------------------------------------------------

OPS = ["iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior", "ixor", "ilshift", "irshift"]


def aug(idx, opname, v):
    def np_op(b):
        b[idx] = getattr(operator, opname)(b[idx], v)  # what Python does for b[idx] op= v

    def ref_op(r):
        p = npr_at(r)
        p[idx] = getattr(operator, opname)(p[idx], v)
    return np_op, ref_op


def _aug_all_index_kinds(a, opname, v):
    """a[basic] op= v, a[advanced with duplicates] op= v, a[i, j] op= v (a NumPy scalar)."""
    nv = v.item() if isinstance(v, jax.Array) else v  # a weak JAX value stands for a Python scalar
    for idx, w, nw in [((slice(None), slice(0, 4)), v, nv),
                       (([1, 1, 0], [0, 0, 3]), v[..., :3] if np.ndim(v) else v, np.asarray(nv)[..., :3] if np.ndim(v) else nv),
                       ((1, 2), v[1] if np.ndim(v) else v, np.asarray(nv)[1] if np.ndim(v) else nv)]:
        check(a, aug(idx, opname, nw)[0], aug(idx, opname, w)[1])


@pytest.mark.parametrize("opname", OPS)
@pytest.mark.parametrize("dtype,v", [
    (np.int32, 3), (np.int16, np.array([2, -1, 3, 5])), (np.uint8, 200), (np.float64, 2.5),
    (np.float32, np.float64(0.75)), (np.bool_, True), (np.int32, 1.5), (np.int32, J(2)), (np.float32, J(0.5)),
])
def test_augmented_assignment(opname, dtype, v):
    _aug_all_index_kinds(np.array([[7, -7, 0, 5], [-3, 12, 9, 1]]).astype(dtype), opname, lazy(v))


@pytest.mark.parametrize("opname,dtype,v", [
    ("ipow", np.float64, 2), ("ipow", np.float64, -1), ("ipow", np.float64, 0.5), ("ipow", np.complex128, 2),
    ("ipow", np.int64, 2), ("ifloordiv", np.float64, -0.0), ("imod", np.float64, -0.0), ("imod", np.float64, -2.5),
    ("ifloordiv", np.int64, np.array([0, 2, -3, 5])), ("imod", np.int64, np.array([0, 2, -3, 5])),
    ("itruediv", np.float64, np.array([0.0, 0.1, -0.3, 7.0])), ("iadd", np.int8, np.int64(2)),
    ("isub", np.int32, -2), ("ilshift", np.int64, np.array([1, 0, 63, 2])), ("irshift", np.int32, 2),
])
def test_augmented_special_values(opname, dtype, v):
    _aug_all_index_kinds(np.array([[7, -7, 0, 5], [-3, 12, 9, 1]]).astype(dtype), opname, v)


def test_augmented_errors_and_scalar_rule():
    a = np.zeros((2, 3), np.int32)
    e = check(a, *aug(slice(None), "iadd", 1.5))
    assert isinstance(e, np._core._exceptions._UFuncOutputCastingError)
    check(a, *aug((0, 1), "iadd", 1.5))  # a NumPy scalar: result stored with an unsafe cast
    assert check(a, *aug((0, 1), "iadd", np.ones(1))) is not None
    assert check(a, *aug(slice(None), "iadd", np.ones((1, 2, 3)))) is not None
    assert check(a, *aug([0, 0], "iadd", 2 ** 40)) is not None
    assert check(a, *aug(slice(None), "ipow", -1)) is not None
    assert check(np.zeros(3, bool), *aug(slice(None), "isub", True)) is not None
    check(np.arange(4.0), *aug(slice(None), "itruediv", np.array([0.0, 1.0, 0.0, 2.0])), jit=True)
    check(np.arange(5), *aug([0, 0, 1], "iadd", np.array([1, 2, 3])), jit=True)
    x = np.random.default_rng(0).normal(size=200) * 100  # XLA would rewrite x / c as x * (1 / c)
    for c in (0.3, 2.5):
        check(x, *aug(slice(None), "itruediv", c), jit=True)


# ---- views ---------------------------------------------------------------------------------

VIEWS = [
    lambda x, s, t, r: s(x, 1), lambda x, s, t, r: s(x, (slice(None), slice(None, None, -2))),
    lambda x, s, t, r: t(s(x, (slice(1, None), slice(None, None, -2)))), lambda x, s, t, r: s(x, (None, Ellipsis, 2)),
    lambda x, s, t, r: r(t(x), -1), lambda x, s, t, r: r(x, (2, 2, 6)), lambda x, s, t, r: r(s(x, slice(1, 3)), (3, 4)),
    lambda x, s, t, r: s(r(t(x), (3, 8)), (slice(None), slice(2, 6))), lambda x, s, t, r: r(s(x, (slice(None), 0)), (2, 2)),
    lambda x, s, t, r: t(r(x, (2, 3, 4)), (1, 0, 2)), lambda x, s, t, r: s(x, (-1, slice(None, None, -1))),
]
_NP = (lambda x, i: x[i], lambda x, axes=None: x.transpose(axes), lambda x, sh: x.reshape(sh))
_RF = (npr_sub, npr_transpose, npr_reshape)


@pytest.mark.parametrize("k", range(len(VIEWS)))
def test_views_alias_their_base(k):
    a = np.arange(24.0).reshape(4, 6)
    v = VIEWS[k](a, *_NP)
    is_view = np.shares_memory(v, a)
    r = jax.new_ref(jnp.asarray(a))
    rv = VIEWS[k](r, *_RF)
    assert isinstance(rv, NprView) == is_view
    same(v, npr_load(rv))
    if not is_view:
        return
    v[(0,) * (v.ndim - 1)] = -1.0  # a write through the view lands in the base
    npr_at(rv)[(0,) * (rv.ndim - 1)] = -1.0
    same(a, r[...])
    a[1:3] *= 10  # a later write to the base shows in the view
    npr_at(r)[1:3] *= 10
    same(v, npr_load(rv))
    same(v[..., ::-1], rv[..., ::-1])
    assert (rv.shape, rv.ndim, rv.size, len(rv), rv.dtype) == (v.shape, v.ndim, v.size, len(v), v.dtype)


def test_ravel_swapaxes_and_view_rules():
    a = np.arange(24.0).reshape(4, 6)
    r = jax.new_ref(jnp.asarray(a))
    for np_v, ref_v in [(a[1:3], npr_sub(r, slice(1, 3))), (a[:, 1:3], npr_sub(r, (slice(None), slice(1, 3)))),
                        (a[::2], npr_sub(r, slice(None, None, 2))), (a.T, npr_transpose(r))]:
        rav = npr_ravel(ref_v)
        assert isinstance(rav, NprView) == np.shares_memory(np_v.ravel(), a)
        same(np_v.ravel(), npr_load(rav))
    sw = npr_swapaxes(npr_reshape(r, (2, 3, 4)), 0, -1)
    same(a.reshape(2, 3, 4).swapaxes(0, -1), npr_load(sw))
    npr_at(sw)[1, 2] = 0.5
    a.reshape(2, 3, 4).swapaxes(0, -1)[1, 2] = 0.5
    same(a, r[...])
    same(a.T, npr_load(npr_sub(r, Ellipsis).T))
    assert not isinstance(npr_sub(r, (1, 2)), NprView) and not isinstance(npr_sub(r, [1, 2]), NprView)
    s = jax.new_ref(jnp.asarray(3.0))
    assert isinstance(npr_sub(s, Ellipsis), NprView) and not isinstance(npr_sub(s, ()), NprView)


def test_view_shape_errors():
    a = np.arange(24.0).reshape(4, 6)
    r = jax.new_ref(jnp.asarray(a))
    for np_f, ref_f in [(lambda: a.reshape(5, 5), lambda: npr_reshape(r, (5, 5))),
                        (lambda: a.reshape(-1, -1), lambda: npr_reshape(r, (-1, -1))),
                        (lambda: a.transpose((0, 0)), lambda: npr_transpose(r, (0, 0))),
                        (lambda: a.transpose((0, 2)), lambda: npr_transpose(r, (0, 2))),
                        (lambda: np.swapaxes(a, 0, 2), lambda: npr_swapaxes(r, 0, 2))]:
        with pytest.raises(Exception) as np_err:
            np_f()
        with pytest.raises(type(np_err.value)) as ref_err:
            ref_f()
        assert str(ref_err.value) == str(np_err.value)


def test_row_swap_through_views():
    a = np.arange(6.0).reshape(2, 3)
    r = jax.new_ref(jnp.asarray(a))
    a[0], a[1] = a[1], a[0]  # NumPy: both rows end up equal
    npr_at(r)[0], npr_at(r)[1] = npr_sub(r, 1), npr_sub(r, 0)
    same(a, r[...])
    b = np.arange(3.0)
    s = jax.new_ref(jnp.asarray(b))
    b[0], b[1] = b[1], b[0]
    npr_at(s)[0], npr_at(s)[1] = npr_sub(s, 1), npr_sub(s, 0)
    same(b, s[...])


def test_views_under_jit_with_traced_index():
    @jax.jit
    def f(x, i):
        r = jax.new_ref(x)
        row = npr_sub(r, i)
        npr_at(row)[::-1] = npr_sub(r, 0)
        npr_at(npr_transpose(r))[1] += 100.0
        row_now = npr_load(row)
        return jax.freeze(r), row_now
    a = np.arange(24.0).reshape(4, 6)
    row = a[-2]
    a[-2][::-1] = a[0]
    a.T[1] += 100.0
    got, got_row = f(jnp.asarray(np.arange(24.0).reshape(4, 6)), -2)
    same(a, got)
    same(row, got_row)


_CHAINS = [  # (view indices applied in turn to a 5x12 base, the store's index through the view)
    ((1,), 3), ((1,), -2), ((1,), slice(2, 9, 3)), ((1,), slice(None, None, -2)),
    ((slice(None, None, -1),), (2, slice(1, None, 4))), ((slice(None, None, -1),), (slice(3, 0, -2), -1)),
    ((slice(4, 0, -2), slice(1, 11, 2)), (1, slice(None, None, -1))), ((slice(1, 4), 7), slice(None, None, -1)),
    ((slice(None), slice(10, 2, -3)), (slice(None, None, -1), 1), 2), ((3, slice(2, None)), Ellipsis),
    ((Ellipsis, slice(None, None, -1)), (None, 1, slice(5, 2, -1))), ((1,), slice(4, 4)),
]


@pytest.mark.parametrize("aug", [False, True])
@pytest.mark.parametrize("k", range(len(_CHAINS)))
def test_store_through_view_composes_onto_base(k, aug):
    *chain, idx = _CHAINS[k]
    a, r = np.arange(60.0).reshape(5, 12), jax.new_ref(jnp.arange(60.0).reshape(5, 12))
    v, rv = a, r
    for ix in chain:
        v, rv = v[ix], npr_sub(rv, ix)
    val = np.arange(np.size(v[idx])).reshape(np.shape(v[idx])) * 0.5 + 100.0
    if aug:
        v[idx] -= val
        npr_at(rv)[idx] -= jnp.asarray(val)
    else:
        v[idx] = val
        npr_at(rv)[idx] = jnp.asarray(val)
    same(a, r[...])


def test_store_through_view_is_one_update_of_the_base():
    """A row view's element store in a traced loop (the Thomas sweep of corpus/thomas_tridiag,
    here also through a reversed row): one dynamic_update_slice of the base per store, not a
    rewrite of the row and of the base; values as NumPy's."""
    def f(x):
        r = jax.new_ref(x)

        def body(i, carry):
            m = 0.25 / npr_load(npr_sub(r, 1))[i - 1]
            npr_at(npr_sub(r, 1))[i] -= m
            npr_at(npr_sub(r, (3, slice(None, None, -1))))[i] -= m * npr_load(npr_sub(r, (3, slice(None, None, -1))))[i - 1]
            return carry
        jax.lax.fori_loop(1, 12, body, 0)
        return jax.freeze(r)
    a = np.arange(1.0, 61.0).reshape(5, 12)
    b, d = a[1], a[3][::-1]
    for i in range(1, 12):
        m = 0.25 / b[i - 1]
        b[i] -= m
        d[i] -= m * d[i - 1]
    same(a, jax.jit(f)(jnp.arange(1.0, 61.0).reshape(5, 12)))

    def one(x, i):
        r = jax.new_ref(x)
        npr_at(npr_sub(r, (3, slice(None, None, -1))))[i] = 7.0
        return jax.freeze(r)
    text = str(jax.make_jaxpr(one)(jnp.zeros((5, 12)), 2))
    assert text.count("dynamic_update_slice") == 1 and "scatter" not in text, text
    for i in (0, 5, -1, -12, 11, 40, -40):  # out of range: clamped into the row, as before
        b = np.zeros((5, 12))
        b[3, ::-1][min(max(i + 12 if i < 0 else i, 0), 11)] = 7.0
        same(b, jax.jit(one)(jnp.zeros((5, 12)), i))


_T_CHAINS = [  # (views of a 4x5x6 base: ('t', axes) a transpose, else a basic index; the store's index)
    (('t', None), 0), (('t', None), (slice(1, 4), slice(None, None, -2))), (('t', (1, 0, 2)), (2, slice(1, 3))),
    (('t', (2, 0, 1)), (slice(1, 3), Ellipsis, 1)), ((1,), ('t', None), (slice(None), slice(3, 0, -1))),
    ((slice(None, None, -1), slice(1, 4)), ('t', (1, 2, 0)), (0, 1)), (('t', None), (slice(2, 4),), ('t', None), 1),
    (('t', (0, 2, 1)), (None, 1, slice(None), 2)),
]


@pytest.mark.parametrize("aug", [False, True])
@pytest.mark.parametrize("k", range(len(_T_CHAINS)))
def test_store_through_transposed_view_updates_the_base_in_place(k, aug):
    """A store through a transposed view (`u.T[0] = v`, corpus/heat2d_explicit) lands in the
    base's elements directly: no transpose of the base in the traced program."""
    *chain, idx = _T_CHAINS[k]
    a = np.arange(120.0).reshape(4, 5, 6)
    v = a
    for step in chain:
        v = v.transpose(step[1]) if step[0] == 't' else v[step]
    val = np.arange(np.size(v[idx])).reshape(np.shape(v[idx])) * 0.5 + 100.0
    if aug:
        v[idx] -= val
    else:
        v[idx] = val

    def f(x):
        r = jax.new_ref(x)
        rv = r
        for step in chain:
            rv = npr_transpose(rv, step[1]) if step[0] == 't' else npr_sub(rv, step)
        if aug:
            npr_at(rv)[idx] -= jnp.asarray(val)
        else:
            npr_at(rv)[idx] = jnp.asarray(val)
        return jax.freeze(r)
    x = jnp.arange(120.0).reshape(4, 5, 6)
    same(a, f(x))
    jaxpr = jax.make_jaxpr(f)(x).jaxpr
    assert not [e for e in jaxpr.eqns if e.primitive.name == "transpose" and e.outvars[0].aval.shape != ()
                and np.prod(e.outvars[0].aval.shape) == a.size], jaxpr


# ---- chained stores into one region (_npr_last_store) ------------------------------------

_REGIONS = [(slice(1, -1), slice(1, -1)), (slice(1, -1),), (2, slice(None)), (slice(None), slice(None, None, -1)),
            (Ellipsis,), (slice(0, 3), 1), (slice(1, -1), slice(1, -1)), (slice(None, None, 2), slice(1, 6, 2)),
            (slice(0, 6, 4), 3)]
_STEPS = st.lists(st.one_of(
    st.tuples(st.sampled_from(["=", "+=", "*=", "-="]), st.integers(0, len(_REGIONS) - 1), st.integers(-3, 3)),
    st.tuples(st.sampled_from(["read", "view", "loop", "other"]), st.integers(0, len(_REGIONS) - 1),
              st.integers(-3, 3))), min_size=1, max_size=7)


def _chain(a, steps, np_):
    """The store sequence `steps` on a (a NumPy array, or a Ref when not np_); returns the sum of
    the values read along the way."""
    acc = 0.0
    for op, k, c in steps:
        R = _REGIONS[k]
        if op == "read":
            acc = acc + (a[R].sum() if np_ else npr_load(npr_sub(a, R)).sum())
        elif op == "view":
            if np_:
                a[R][...] *= 0.5
            else:
                npr_at(npr_sub(a, R))[...] *= 0.5
        elif op == "loop":
            if np_:
                for i in range(2):
                    a[R] += i
            else:
                jax.lax.fori_loop(0, 2, lambda i, z: (npr_at(a).__setitem__(R, _npr_iadd(a, R, i)), z)[1], 0)
        elif op == "other":
            if np_:
                a[0, 0] = c
            else:
                npr_at(a)[0, 0] = float(c)
        elif op == "=":
            if np_:
                a[R] = c + 0.5 * a[R]
            else:
                npr_at(a)[R] = c + 0.5 * npr_load(npr_sub(a, R))
        else:
            v = np.arange(np.size(np.zeros((6, 7))[R]), dtype=float).reshape(np.shape(np.zeros((6, 7))[R])) + c
            if np_:
                a[R] = {"+=": a[R] + v, "*=": a[R] * v, "-=": a[R] - v}[op]
            else:
                t = npr_at(a)
                if op == "+=":
                    t[R] += v
                elif op == "*=":
                    t[R] *= v
                else:
                    t[R] -= v
    return acc


def _npr_iadd(r, R, i):
    return npr_load(npr_sub(r, R)) + i


_SLICES = st.one_of(st.integers(-7, 6), st.builds(slice, st.one_of(st.none(), st.integers(-8, 8)),
                                                   st.one_of(st.none(), st.integers(-8, 8)),
                                                   st.one_of(st.none(), st.integers(1, 3), st.integers(-3, -1))))


@HYP
@given(st.tuples(_SLICES, _SLICES), st.tuples(_SLICES, _SLICES))
@example((2, slice(1, 5)), (slice(1, -1), slice(None)))
@example((slice(0, 6, 4), 3), (slice(None, None, 2), slice(None)))
@example((slice(4, 0, -2), slice(None, None, -3)), (slice(None), slice(None)))
@example((slice(1, 5, 2), 2), (slice(None, None, 2), slice(None)))  # rows 1, 3 are not within
def test_region_within_region_indexes_the_stored_value(inner, outer):
    """_npr_within: where it finds `inner` inside `outer`, its index into the value stored in
    outer (each range ascending) reads exactly inner's elements."""
    from np2ref.rt.index import _npr_Idx, _npr_region_key, _npr_within
    a = np.arange(42).reshape(6, 7)
    try:
        a[inner], a[outer]
    except IndexError:
        return

    def ascending(idx):  # the region's key, and its elements with every range ascending
        ents = [e[::-1] if isinstance(e, range) and e.step < 0 else e for e in _npr_Idx(a.shape, idx).ents]
        return _npr_region_key(ents), a[tuple(slice(e.start, e.stop, e.step) if isinstance(e, range) else e
                                              for e in ents)]
    (ki, want), (ko, stored) = ascending(inner), ascending(outer)
    idx = _npr_within(ki, ko)
    contained = want.size and set(want.ravel()) <= set(stored.ravel())
    if idx is None:  # only where inner keeps a dim that outer indexes with an int
        assert not contained or any(isinstance(o, int) and not isinstance(i, int) for i, o in zip(ki, ko))
        return
    assert contained and np.array_equal(stored[idx], want), (inner, outer, idx)


@HYP
@given(_STEPS)
@example([("=", 0, 1), ("view", 0, 0), ("+=", 0, 1)])  # a store between, each way np2ref stores
@example([("+=", 4, 1), ("other", 0, 3), ("+=", 4, 1)])
@example([("*=", 1, 2), ("loop", 1, 0), ("-=", 1, 1)])
@example([("+=", 3, 1), ("read", 3, 0), ("*=", 3, 2), ("*=", 0, 2), ("+=", 3, 1)])
def test_chained_stores_into_one_region_keep_numpys_values(steps):
    """A store that reuses what the last store put in its region (or stores over what that one
    stored over) must agree with NumPy whatever happens in between: loads, writes through views,
    loops and stores elsewhere."""
    a = np.arange(42.0).reshape(6, 7)  # small dyadic values: exact in any association, which
    acc = _chain(a, steps, True)        # XLA may change ((x + 1) + 2 is folded to x + 3)

    @jax.jit
    def f(x):
        r = jax.new_ref(x)
        acc = _chain(r, steps, False)
        return jax.freeze(r), acc
    got, got_acc = f(jnp.asarray(np.arange(42.0).reshape(6, 7)))
    same(a, got)
    assert got_acc == acc


def test_chained_stores_into_one_region_are_one_pass():
    """`a[s] = e; a[s] *= w; a[s] += f` (corpus/jacobi_poisson2d): one dynamic-update-slice of
    a after XLA, as a hand port writes it; a load in between keeps the stores apart."""
    def chained(read_between):
        def f(x, y):
            r = jax.new_ref(x)
            npr_at(r)[1:-1, 1:-1] = 0.25 * (y[2:, 1:-1] + y[:-2, 1:-1])
            s = npr_load(r).sum() if read_between else 0.0
            interior = npr_sub(r, (slice(1, -1), slice(1, -1)))
            npr_at(interior)[...] *= 0.5
            npr_at(interior)[...] += y[1:-1, 1:-1]
            return jax.freeze(r), s
        return f
    x, y = jnp.arange(64.0).reshape(8, 8), jnp.arange(64.0).reshape(8, 8)[::-1] * 0.1
    expected = np.asarray(x).copy()
    expected[1:-1, 1:-1] = 0.25 * (np.asarray(y)[2:, 1:-1] + np.asarray(y)[:-2, 1:-1]) * 0.5 + np.asarray(y)[1:-1, 1:-1]
    for read_between, passes in ((False, 1), (True, 2)):
        compiled = jax.jit(chained(read_between)).lower(x, y).compile()
        same(expected, compiled(x, y)[0])
        assert compiled.as_text().count("dynamic-update-slice(") == passes, (read_between, compiled.as_text())


def test_overlapping_stores_into_a_row_copy_nothing():
    """corpus/thomas_tridiag's build_system: `np.multiply(u, x, out=d); d[1:] += y; d[:-1] += z`
    on d = work[3]. The op= reads come from the values stored, so XLA neither slices a
    dynamic-update-slice nor copies the 4 x n work array to keep one."""
    def f(work, u):
        r = jax.new_ref(work)
        d = npr_sub(r, 3)
        npr_out(d, u * 0.5)
        npr_at(d)[1:] += u[:-1] * 0.25
        npr_at(d)[:-1] += u[1:] * 0.125
        return jax.freeze(r)
    work, u = np.arange(64.0).reshape(4, 16), np.arange(16.0) + 1.0
    expected = work.copy()
    d = expected[3]
    np.multiply(u, 0.5, out=d)
    d[1:] += u[:-1] * 0.25
    d[:-1] += u[1:] * 0.125
    compiled = jax.jit(f, donate_argnums=0).lower(jnp.asarray(work), jnp.asarray(u)).compile()
    same(expected, compiled(jnp.asarray(work), jnp.asarray(u)))  # donated: work is updated in place
    assert not re.search(r"f64\[4,16\]\S* copy\(", compiled.as_text()), compiled.as_text()


def test_basic_stores_lower_to_dynamic_update_slice_and_add_at_to_addupdate():
    def f(x, i):
        r = jax.new_ref(x)
        npr_at(r)[1:3, i] = 2.0
        npr_at(r)[i, ::-1] += x[0]
        npr_ufunc_at("add", r, ([0, 0], [1, 1]), 1.0)
        return jax.freeze(r)
    text = str(jax.make_jaxpr(f)(jnp.asarray(A46), 2))
    assert "dynamic_update_slice" in text and "scatter" not in text
    assert re.search(r"\w+\[\w+,\w+\] \+=", text)  # jax.ref.addupdate with two coordinate arrays


def test_stores_in_fori_loop_and_plain_arrays():
    def f(x):
        r = jax.new_ref(x)

        def body(i, carry):
            npr_at(r)[i, 1:] = npr_load(npr_sub(r, (i - 1, slice(None, -1)))) * 2 + npr_sub(x, (i, 0))
            return carry
        jax.lax.fori_loop(1, 4, body, 0)
        return jax.freeze(r)
    a = A46.copy()
    for i in range(1, 4):
        a[i, 1:] = a[i - 1, :-1] * 2 + A46[i, 0]
    same(a, jax.jit(f)(jnp.asarray(A46)))
    same(A46[::-1, [0, 2]], npr_sub(A46, (slice(None, None, -1), [0, 2])))
    same(A46.T.reshape(-1), npr_ravel(npr_transpose(A46)))
    same(A46.reshape(3, 8), npr_reshape(A46, (3, -1)))
    with pytest.raises(TypeError):
        npr_at(jnp.zeros(3))[0] = 1.0


def test_load_own_value():
    r = npr_own(np.arange(3.0))
    assert isinstance(r, jax.Ref) and npr_own(r) is r
    v = npr_sub(r, slice(1, None))
    assert npr_own(v) is v and npr_load(5) == 5
    out = npr_value((r, [v, {"k": r}], 7))
    same(np.arange(3.0), out[0])
    same(np.arange(1.0, 3.0), out[1][0])
    same(np.arange(3.0), out[1][1]["k"])
    assert out[2] == 7


# ---- ufunc.at ------------------------------------------------------------------------

def _at(name, x, idx, v):
    r = jax.new_ref(x)
    npr_ufunc_at(name, r, idx, v)
    return jax.freeze(r)


_at_traced = jax.jit(_at, static_argnums=0)


@HYP
@given(st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum"]),
       st.lists(st.integers(-6, 5), max_size=8), st.integers(0, 100))
def test_ufunc_at_duplicates(name, idx, seed):
    vals = np.random.default_rng(seed).integers(-5, 6, size=len(idx)).astype(float)
    a = np.arange(6.0) - 2
    check(a, lambda b: getattr(np, name).at(b, idx, vals), lambda r: npr_ufunc_at(name, r, idx, vals))
    b = a.copy()
    getattr(np, name).at(b, idx, vals)
    same(b, _at_traced(name, jnp.asarray(a), jnp.asarray(idx, np.int64), jnp.asarray(vals)))
    check(a.astype(np.int32), lambda b: getattr(np, name).at(b, idx, vals.astype(np.int32)),
          lambda r: npr_ufunc_at(name, r, idx, vals.astype(np.int32)))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum"])
@pytest.mark.parametrize("idx,v", [
    (([0, 0, 3], [1, 1, 5]), np.array([1.0, 2.0, 3.0])), (([0, 0, 3], slice(None)), 2.0), ((slice(1, 3), [0, 0]), 1.5),
    ((slice(None, None, -1), 1), np.arange(4.0)), ((None, 1), 2.0), (A46 > 12, 3.0), ((1, 2), 4.0),
])
def test_ufunc_at_tuple_indices(name, idx, v):
    check(A46, lambda b: getattr(np, name).at(b, idx, v), lambda r: npr_ufunc_at(name, r, idx, v), jit=name in ("add", "maximum"))
    a = np.arange(24.0).reshape(4, 6)
    r = jax.new_ref(jnp.asarray(a))
    getattr(np, name).at(a.T, idx[::-1] if isinstance(idx, tuple) else idx.T, v)
    npr_ufunc_at(name, npr_transpose(r), idx[::-1] if isinstance(idx, tuple) else idx.T, v)
    same(a, r[...])


def test_ufunc_at_casting_and_errors():
    a = np.arange(5, dtype=np.int32)
    check(a, lambda b: np.add.at(b, [0, 0], np.int64(2 ** 33 + 1)), lambda r: npr_ufunc_at("add", r, [0, 0], np.int64(2 ** 33 + 1)))
    check(a, lambda b: np.multiply.at(b, [1, 1], np.int64(-3)), lambda r: npr_ufunc_at("multiply", r, [1, 1], np.int64(-3)))
    check(a.astype(bool), lambda b: np.add.at(b, [0, 0], True), lambda r: npr_ufunc_at("add", r, [0, 0], True))
    check(a.astype(bool), lambda b: np.multiply.at(b, [1, 2], False), lambda r: npr_ufunc_at("multiply", r, [1, 2], False))
    ones12 = np.ones((1, 2), np.int32)
    assert check(a, lambda b: np.add.at(b, [0, 1], ones12), lambda r: npr_ufunc_at("add", r, [0, 1], ones12))
    assert check(a.astype(bool), lambda b: np.subtract.at(b, [0], True), lambda r: npr_ufunc_at("subtract", r, [0], True))
    assert check(a, lambda b: np.add.at(b, [7], 1), lambda r: npr_ufunc_at("add", r, [7], 1))
    # NumPy computes in result_type and casts back after every element: applied in order
    check(a, lambda b: np.add.at(b, [0, 0], 1.5), lambda r: npr_ufunc_at("add", r, [0, 0], 1.5))
    check(a, lambda b: np.add.at(b, [0, 0, 3], [0.6, 0.6, -1.7]), lambda r: npr_ufunc_at("add", r, [0, 0, 3], [0.6, 0.6, -1.7]), jit=True)
    check(a, lambda b: np.maximum.at(b, [0], np.int64(2 ** 40)), lambda r: npr_ufunc_at("maximum", r, [0], np.int64(2 ** 40)))
    check(a.astype(np.float32), lambda b: np.add.at(b, [0, 0], 1 / 3), lambda r: npr_ufunc_at("add", r, [0, 0], 1 / 3))
    check(a.astype(np.float32) + 1, lambda b: np.add.at(b, [1, 1, 1], 1e-8), lambda r: npr_ufunc_at("add", r, [1, 1, 1], 1e-8))
    check(a.astype(np.int8), lambda b: np.subtract.at(b, [2, 2], 2.7), lambda r: npr_ufunc_at("subtract", r, [2, 2], 2.7))
    check(np.array([5, -5, 3]), lambda b: np.multiply.at(b, [0, 1, 0], 0.5), lambda r: npr_ufunc_at("multiply", r, [0, 1, 0], 0.5))
    check(a.astype(bool), lambda b: np.add.at(b, [0, 0], 0.5), lambda r: npr_ufunc_at("add", r, [0, 0], 0.5))
    for v in (np.nan, np.inf, -np.inf):  # False * nan is nan, which is True (XLA folded it to 0)
        for name in ("multiply", "subtract"):
            check(np.array([True, False, True, False, False]), lambda b: getattr(np, name).at(b, [0, 0, 1, 0], v),
                  lambda r: npr_ufunc_at(name, r, [0, 0, 1, 0], v), jit=True)
    check(a.astype(np.float32), lambda b: np.add.at(b, [0, 0], 0.25), lambda r: npr_ufunc_at("add", r, [0, 0], 0.25))
    check(a.astype(np.int8), lambda b: np.add.at(b, [0, 0], 200), lambda r: npr_ufunc_at("add", r, [0, 0], 200))
    check(a.astype(np.uint8), lambda b: np.maximum.at(b, [1, 1], 9), lambda r: npr_ufunc_at("maximum", r, [1, 1], 9))
    # NumPy: max in int64, then cast back
    check(a.astype(np.uint8), lambda b: np.maximum.at(b, [1, 1], -1), lambda r: npr_ufunc_at("maximum", r, [1, 1], -1))


# ---- out=, fill, sort, copyto, putmask, put, place, fill_diagonal, where_store -----------

def test_out():
    a = np.zeros((2, 3), np.int32)
    check(a, lambda b: np.add(np.ones(3), 1.0, out=b), lambda r: npr_out(r, jnp.ones(3) + 1.0, "add"))
    check(a, lambda b: np.add(np.ones(3, np.int64), 2 ** 33, out=b), lambda r: npr_out(r, jnp.ones(3, np.int64) + 2 ** 33, "add"))
    check(a, lambda b: np.add(np.ones((1, 3), np.int32), 1, out=b[0]), lambda r: npr_out(npr_sub(r, 0), jnp.ones((1, 3), np.int32) + 1, "add"))
    check(a, lambda b: np.negative(np.ones(4, np.int32), out=b), lambda r: npr_out(r, -jnp.ones(4, np.int32), "negative"))
    check(a, lambda b: np.copyto(b, np.full(3, 2.9), casting="unsafe"), lambda r: npr_out(r, jnp.full(3, 2.9)))
    r = jax.new_ref(jnp.zeros(3))
    assert npr_out(r, 2.0) is r


@pytest.mark.parametrize("dtype,v", [(np.int32, 2.7), (np.int32, 2 ** 40), (np.float32, np.float64(1 / 3)), (np.bool_, 2),
                                     (np.int32, np.ones(1)), (np.int32, np.ones((1, 1))), (np.int32, np.int64(7)),
                                     (np.float64, J(1.5)), (np.int8, J(100)), (np.int8, J(-5, np.int64))])
def test_fill(dtype, v):
    v = lazy(v)
    nv = np.asarray(v) if isinstance(v, jax.Array) and np.ndim(v) else v.item() if isinstance(v, jax.Array) else v
    nv = nv if not (isinstance(v, jax.Array) and not jax.typeof(v).weak_type) else np.asarray(v)[()]
    check(np.zeros((2, 3), dtype), lambda b: b.fill(nv), lambda r: npr_fill(r, v), jit=not isinstance(v, jax.Array))


@pytest.mark.parametrize("a,axis", [(np.array([[3.0, np.nan, -1.0], [0.0, -np.inf, 2.0]]), -1), (np.array([[3, 1], [0, 2]]), 0),
                                    (np.array([True, False, True]), 0), (np.zeros((2, 2)), 2), (np.array(1.0), -1),
                                    (np.zeros(3), None)])
def test_sort(a, axis):
    check(a, lambda b: b.sort(axis), lambda r: npr_sort(r, axis), jit=True)


@pytest.mark.parametrize("src,casting,where", [
    (np.ones(3), "same_kind", True), (1.5, "same_kind", True), (np.float32(1.5), "same_kind", True),
    (np.arange(3), "same_kind", np.array([True, False, True])), (2 ** 40, "unsafe", True), (np.ones(3), "unsafe", True),
    (np.ones((1, 3), np.int32), "safe", True), (np.ones((2, 3), np.int16), "no", True), (np.ones(4), "unsafe", True),
    (np.ones(3, np.int64), "same_kind", np.array([[True], [False]])), (1, "safe", np.array([1, 0, 1])),
    (np.arange(3), "same_kind", np.ones((1, 3), bool)), (J(np.arange(3.0)), "unsafe", J([True, False, True])),
])
def test_copyto(src, casting, where):
    src, where = lazy(src), lazy(where)
    check(np.zeros((2, 3), np.int32), lambda b: np.copyto(b, src, casting=casting, where=where),
          lambda r: npr_copyto(r, src, casting=casting, where=where))


@pytest.mark.parametrize("mask,values", [(np.array([1, 0, 1, 1, 0, 1]), [7.9, -8.2]), (np.ones(6, bool), []),
                                         (np.ones(5, bool), [1]), (np.arange(6) % 3 == 0, np.arange(10)),
                                         (J(np.arange(6) > 2), J([4, 5, 6, 7])), (np.ones(6, bool), 2 ** 40)])
def test_putmask(mask, values):
    mask, values = lazy(mask), lazy(values)
    check(np.zeros((2, 3), np.int32), lambda b: np.putmask(b, np.asarray(mask).reshape(-1), values),
          lambda r: npr_putmask(r, mask, values))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("ind,v", [([0, 0, 5], [1.7, 2.9]), ([-1, -6, 7], [9]), ([], [1]), ([1], []), ([[3, 3], [1, 3]], np.arange(4)),
                                   (np.array([2.0]), [1]), ([4], 2 ** 40)])
def test_put(ind, v, mode):
    check(np.zeros((2, 3), np.int32), lambda b: np.put(b, ind, v, mode=mode), lambda r: npr_put(r, ind, v, mode=mode))


@HYP
@given(st.lists(st.integers(-6, 5), min_size=1, max_size=8))
def test_put_traced_duplicates(ind):
    v = np.arange(len(ind), dtype=float) + 1
    b = np.zeros(6)
    np.put(b, ind, v)
    same(b, on_ref_jit(np.zeros(6), lambda r: npr_put(r, jnp.asarray(ind), jnp.asarray(v))))


@pytest.mark.parametrize("mask,vals", [([1, 0, 1, 1, 0, 1], [1.5, 7]), ([0] * 6, []), ([1] * 6, []), ([1, 0, 1], [1]),
                                       (np.arange(6) % 2 == 1, np.arange(10)), ([1] * 6, 2 ** 40)])
def test_place(mask, vals):
    check(np.zeros((2, 3), np.int32), lambda b: np.place(b, np.asarray(mask), vals), lambda r: npr_place(r, mask, vals))


def test_place_traced_mask():
    m = np.array([True, False, True, True, False, True])
    b = np.zeros(6)
    np.place(b, m, [1.0, 2.0, 3.0, 4.0])
    same(b, on_ref_jit(np.zeros(6), lambda r: npr_place(r, jnp.asarray(m), [1.0, 2.0, 3.0, 4.0])))
    with pytest.raises(NotImplementedError, match="NPR108"):
        on_ref_jit(np.zeros(6), lambda r: npr_place(r, jnp.asarray(m), []))


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 2, 2), (2, 3, 2), (4,), (0, 0)])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("val", [7.5, [1, 2], np.arange(7)])
def test_fill_diagonal(shape, wrap, val):
    check(np.zeros(shape, np.int32), lambda b: np.fill_diagonal(b, val, wrap=wrap), lambda r: npr_fill_diagonal(r, val, wrap=wrap))


def test_where_store():
    m2 = A46 > 10
    for mask, value in [(m2, -A46), (m2, 5), (M, np.arange(6.0)), (m2, np.ones((4, 1)))]:
        b = A46.astype(np.int32)
        b[mask] = np.broadcast_to(np.asarray(value), A46.shape)[mask] if np.ndim(mask) == 2 else value
        same(b, on_ref_jit(A46.astype(np.int32), lambda r: npr_where_store(r, jnp.asarray(mask), value)))
    with pytest.raises(IndexError):
        on_ref(A46, lambda r: npr_where_store(r, np.ones(3, bool), 1.0))


# ---- autodiff and vmap --------------------------------------------------------------------

def fd_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for k in range(x.size):
        e = np.zeros_like(x)
        e.flat[k] = eps
        g.flat[k] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


def _loss_static(x, np_=False):
    """The same program on NumPy (np_=True) and on refs; duplicates, op=, ufunc.at, views."""
    if np_:
        a = x.copy()
        a[[0, 0, 2, 0]] = x[1:5] ** 2
        a[[1, 1]] += x[:2] * 3.0
        a[-1] = 5.0
        np.add.at(a, [3, 3], x[:2])
        a[::-1][1:3] *= x[0]
        return np.sum(np.sin(a) * np.arange(1.0, 7.0))
    r = jax.new_ref(x)
    npr_at(r)[[0, 0, 2, 0]] = x[1:5] ** 2  # duplicates: the last occurrence wins
    npr_at(r)[[1, 1]] += x[:2] * 3.0
    npr_at(r)[-1] = 5.0  # a constant store (jax 0.10.2 gradient bug #33987)
    npr_ufunc_at("add", r, [3, 3], x[:2])
    npr_at(npr_sub(r, slice(None, None, -1)))[1:3] *= x[0]
    return jnp.sum(jnp.sin(jax.freeze(r)) * jnp.arange(1.0, 7.0))


def _loss_traced(x, idx, np_=False):
    if np_:
        a = x.copy()
        a[idx] = x[1:5] * x[0]
        a[idx] -= x[2:6]
        return np.sum(a ** 2 * np.arange(1.0, 7.0))
    r = jax.new_ref(x)
    npr_at(r)[idx] = x[1:5] * x[0]
    npr_at(r)[idx] -= x[2:6]
    return jnp.sum(jax.freeze(r) ** 2 * jnp.arange(1.0, 7.0))


_grad_static = jax.jit(jax.grad(_loss_static))
_grad_traced = jax.jit(jax.grad(_loss_traced))
IDX = np.array([0, 3, 0, -3])


def test_gradients_of_duplicate_stores_match_numpy_finite_differences():
    x = np.linspace(0.3, 1.7, 6)
    fd = fd_grad(lambda y: _loss_static(y, np_=True), x)
    np.testing.assert_allclose(float(_loss_static(x)), _loss_static(x, np_=True), rtol=1e-13)
    np.testing.assert_allclose(jax.grad(_loss_static)(x), fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(_grad_static(x), fd, rtol=1e-6, atol=1e-8)
    fd = fd_grad(lambda y: _loss_traced(y, IDX, np_=True), x)
    np.testing.assert_allclose(_grad_traced(x, jnp.asarray(IDX)), fd, rtol=1e-6, atol=1e-8)


def test_vmap_of_internal_refs():
    xs = np.arange(12.0).reshape(2, 6)
    idx = np.array([[0, 0, 5], [4, 1, 4]])

    def f(x, i):
        r = jax.new_ref(x)
        npr_at(r)[i] = x[:3] * 10
        npr_at(r)[::-2] += 1.0
        npr_ufunc_at("add", r, i, 1.0)
        return jax.freeze(r)
    got = jax.jit(jax.vmap(f))(jnp.asarray(xs), jnp.asarray(idx))
    for k in range(2):
        b = xs[k].copy()
        b[idx[k]] = b[:3] * 10
        b[::-2] += 1.0
        np.add.at(b, idx[k], 1.0)
        same(b, got[k])
    grads = jax.jit(jax.vmap(_grad_traced, (0, None)))(jnp.asarray(xs), jnp.asarray(IDX))
    for k in range(2):
        np.testing.assert_allclose(grads[k], fd_grad(lambda y: _loss_traced(y, IDX, np_=True), xs[k]), rtol=1e-6, atol=1e-6)


# ---- the runtime as a package, and as one standalone module ------------------------------

def test_runtime_package_imports_only_jax_numpy_and_the_stdlib():
    import np2ref.rt as rt
    allowed = {"numpy", "jax", "jax.numpy", "jax.experimental", "jax.custom_batching", "numpy._core._exceptions"}
    for path in Path(rt.__file__).parent.glob("*.py"):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    root = alias.name.split(".")[0]
                    assert alias.name in allowed or root in sys.stdlib_module_names, (path, alias.name)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                root = node.module.split(".")[0]
                assert node.module in allowed or root in sys.stdlib_module_names or (
                    path.name in ("compat.py", "compat_jaxpr.py", "compat_lapack.py") and node.module.startswith(("jax._src", "jax.experimental.pallas"))), \
                    (path, node.module)
        for node in tree.body:  # names that cannot collide with a user's (converted files import them)
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                assert node.name.startswith(("npr_", "_npr_", "Npr", "_Npr", "PythonLoopWarning")), (path, node.name)
    for name in rt.__all__:
        assert name.startswith(("npr_", "Npr")), name
        if name.startswith("npr_") and not name.startswith("npr_np_") and callable(getattr(rt, name)):
            assert getattr(rt, name).__doc__, name


def test_standalone_runtime_runs_without_np2ref(tmp_path):
    """`convert --standalone`'s package: importable with np2ref blocked, the same helpers."""
    import subprocess

    import np2ref.rt as rt
    from np2ref.emit.standalone import FOLDER, files
    (tmp_path / FOLDER).mkdir()
    for name, data in files().items():
        (tmp_path / FOLDER / name).write_bytes(data)
    script = ("import sys; sys.modules['np2ref'] = None\n"
              "import numpy as np, jax, jax.numpy as jnp\n"
              "np.random.seed(3); before = np.random.get_state()[1].copy()\n"
              "import np2ref_rt as rt\n"
              "assert (np.random.get_state()[1] == before).all()\n"
              f"missing = sorted(set({rt.__all__!r}) - set(dir(rt)))\n"
              "assert not missing, missing\n"
              "with jax.enable_x64(True):\n"
              "    r = jax.new_ref(jnp.zeros(3))\n"
              "    rt.npr_at(r)[::-1] = [1.0, 2.0, 3.0]\n"
              "    print(np.asarray(r[...]).tolist())\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[3.0, 2.0, 1.0]"


def test_plain_lowering_switches_the_peepholes_off_and_changes_no_value(tmp_path):
    """np2ref.plain_lowering(): the same values, another program (the store memory's chained
    stores and pad+where are what it turns off)."""
    import np2ref
    src = ("import numpy as np\n\n\ndef chained(u, w):\n    u[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1]"
           " + u[1:-1, 2:] + u[1:-1, :-2])\n    u[1:-1, 1:-1] *= w\n    u[1:-1, 1:-1] += u[1:-1, 1:-1] ** 2\n"
           "    return u.sum()\n")
    from conftest import load_module
    ns = vars(load_module(src, tmp_path))
    u0 = np.random.default_rng(0).random((40, 40))
    with_peepholes = np2ref.compile(ns["chained"], bitwise=True)  # rounded as NumPy rounds (no FMA)
    with np2ref.plain_lowering():
        plain = np2ref.compile(ns["chained"], bitwise=True)
        texts = {"plain": str(plain.lower(u0.copy(), 0.5).as_text())}
    texts["peepholes"] = str(with_peepholes.lower(u0.copy(), 0.5).as_text())
    expected, a, b = u0.copy(), u0.copy(), u0.copy()
    total = ns["chained"](expected, 0.5)
    np.testing.assert_allclose([with_peepholes(a, 0.5), plain(b, 0.5)], total, rtol=1e-13)  # XLA's sum order
    np.testing.assert_array_equal(a, expected)
    np.testing.assert_array_equal(b, expected)
    assert texts["plain"] != texts["peepholes"]
