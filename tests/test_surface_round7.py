"""Ordinary NumPy np2ref refused, round 7 (tests/programs/surface_round7.py): np.polyder and
np.polyint, np.divide.at and the other ufunc .at without a scatter combiner, indices made by
np.nonzero / np.where(m), and masked reads kept in a name through a mask that is a parameter
(`v = 1.0 / x[m]`, `e[m] = v ** -12`). Differential: the original against np2ref.compile of it,
and jax.grad of `.pure` against central differences of the original where a mask leaves a pole
out."""

import functools
import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("surface_round7")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


def _central_differences(fn, x, eps=1e-6):
    fd = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[k] = eps
        fd[k] = (fn(x + e) - fn(x - e)) / (2 * eps)
    return fd


# -- polynomials ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.bool_])
def test_polynomial_calculus_matches_numpy(dtype):
    """np.polyder / np.polyint (m=, k= as a list and as a scalar) / np.polyadd / np.polysub:
    NumPy's own steps, so NumPy's dtypes (float32 and ints integrate to float64, a float32
    derivative is float64: the int64 arange) and values, bit for bit."""
    p = np.array([3, -2, 1, 5], dtype)
    expected, got = assert_same_as_numpy(P.poly_calculus, compiled("poly_calculus"), p)
    for e, g in zip(expected, got):
        assert np.asarray(g).dtype == np.asarray(e).dtype and np.array_equal(e, g)


@pytest.mark.parametrize("name, reason", [("poly_roots", "np.roots` is not translated: its output shape"),
                                          ("poly_object", "np.poly1d` is not translated: a polynomial object"),
                                          ("poly_product", "np.polymul` is not translated: its output shape")])
def test_polynomial_helpers_of_data_dependent_shape_are_refused_with_their_reason(name, reason):
    getattr(P, name)(np.array([1.0, 2.0, 3.0]))
    with pytest.raises(np2ref.Np2RefError, match="NPR004") as err:
        compiled(name)(np.array([1.0, 2.0, 3.0]))
    assert reason in str(err.value)


# -- ufunc .at -----------------------------------------------------------------------------------
_I = np.array([0, 1, 1, 3, 1, 0, 4, 1, 1, 1])


def _values(n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * rng.choice([1e-8, 1.0, 1e8], n)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_divide_at_applies_repeated_indices_one_after_another(dtype):
    """np.divide.at(a, i, v) is a[i] / v1 / v2 for a repeated i, which is not a[i] / (v1 * v2)
    in floating point: applied one element at a time, the bits are NumPy's."""
    rng = np.random.default_rng(0)
    a, v = rng.uniform(1, 9, 5).astype(dtype), rng.uniform(1.1, 9.7, _I.size).astype(dtype)
    expected = P.divide_at(a.copy(), _I, v)
    d = np.ones(5, dtype)
    np.multiply.at(d, _I, v)
    assert not np.array_equal(a / d, expected)  # (the values do tell the two orders apart)
    got = compiled("divide_at")(a.copy(), _I, v)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("name", ["add_at", "subtract_at", "multiply_at"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_scatter_ufunc_at_keeps_numpys_order_of_repeated_indices(name, dtype):
    """add/subtract/multiply.at go through one XLA scatter: XLA:CPU applies its updates in order,
    so a[i] + v1 + v2 (not a[i] + (v1 + v2)), NumPy's bits; measured on CPU only (the order of a
    GPU scatter's duplicate updates is not NumPy's: see the report of round 7)."""
    a = _values(5, 3, dtype) * 1e3
    big = 1e16 if dtype == np.float64 else 1e8  # a[0] + big - big is 0, a[0] + (big - big) is a[0]
    v = (1 + _values(_I.size, 4, dtype) * 1e-9).astype(dtype) if name == "multiply_at" else \
        np.array([big, big, -big, 2.0, 0.5, -big, 1.5, 0.25, 3.0, 1.0], dtype)
    expected = getattr(P, name)(a.copy(), _I, v)
    combined = np.ones(5, dtype) if name == "multiply_at" else np.zeros(5, dtype)
    getattr(np, "multiply" if name == "multiply_at" else "add").at(combined, _I, v)
    reassociated = a * combined if name == "multiply_at" else a + combined if name == "add_at" else a - combined
    assert not np.array_equal(reassociated, expected)  # (the values do tell the two orders apart)
    got = compiled(name)(a.copy(), _I, v)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("name, a, v", [
    ("floor_divide_at", np.array([7.5, -3.0, 9.0, 4.0, 1.0]), np.array([2.0, 0.0, -1.5, 3.0, 0.5, 2.0, -1.0, 2.0, 3.0, 1.5])),
    ("floor_divide_at", np.array([7, -3, 9, 4, 1]), np.array([2, 0, -2, 3, 1, 2, -1, 2, 3, 1])),
    ("remainder_at", np.array([7.5, -3.0, 9.0, 4.0, 1.0]), np.array([2.0, 0.5, -1.5, 3.0, 0.5, 2.0, -1.0, 2.0, 3.0, 1.5])),
    ("remainder_at", np.array([7, -3, 9, 4, 1], np.int32), np.array([2, 5, -2, 3, 1, 2, -1, 2, 3, 1], np.int32)),
    ("power_at", np.array([2, 3, 1, 4, 5]), np.array([2, 1, 3, 1, 2, 1, 2, 1, 1, 2])),
    ("logical_or_at", np.array([0.0, 0.0, 2.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0])),
    ("bitwise_xor_at", np.array([7, 3, 9, 4, 1], np.uint8), np.array([2, 5, 6, 3, 1, 2, 7, 2, 3, 1], np.uint8)),
    ("divide_at", np.array([7, -3, 9, 4, 1]), np.array([2.0, 4.0, -1.5, 3.0, 0.5, 2.0, -1.0, 2.0, 3.0, 1.5])),
    ("divide_at", np.array([True, False, True, True, False]), np.array([2.0, 0.5, 0.0, 3.0, 0.5, 2.0, 1.0, 2.0, 3.0, 1.5])),
], ids=["floor_float", "floor_int_by_zero", "remainder_float", "remainder_int32", "power_int", "logical_or_float",
        "xor_uint8", "divide_into_int", "divide_into_bool"])
def test_other_ufunc_at_match_numpy(name, a, v):
    """The ufuncs with no scatter combiner, in NumPy's order, computed in NumPy's result type and
    cast back into a's dtype after each element (floats into ints: x86-64's cast)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own, from // 0
        assert_same_as_numpy(getattr(P, name), compiled(name), a, _I, v)


def test_divide_at_gradient_is_numpys():
    x, v = np.array([1.5, -2.0, 3.0, 0.5, 4.0]), _values(_I.size, 5) * 0 + np.linspace(1.1, 2.9, _I.size)
    pure = compiled("divided_energy").pure
    with jax.enable_x64(True):
        gx, gv = (np.asarray(g) for g in jax.grad(lambda a, b: pure(a, _I, b)[0], argnums=(0, 1))(x, v))
    assert np.allclose(gx, _central_differences(lambda y: P.divided_energy(y, _I, v), x), rtol=1e-6)
    assert np.allclose(gv, _central_differences(lambda w: P.divided_energy(x, _I, w), v), rtol=1e-6)


# -- np.nonzero as an index ----------------------------------------------------------------------
_X = np.array([1.0, -2.0, 3.5, 0.25, 5.0, -6.0])
_M = np.array([True, False, True, True, False, True])


@pytest.mark.parametrize("mask", [_M, _M * 3, np.zeros(6, bool)], ids=["bool", "int", "none"])
@pytest.mark.parametrize("name", ["nonzero_sum", "where_index_sum_of_squares", "nonzero_first_sum",
                                  "flatnonzero_sum", "nonzero_store", "nonzero_method_selection"])
def test_nonzero_indices_go_where_the_mask_goes(name, mask):
    """x[np.nonzero(m)] (np.where(m), m.nonzero()) is x[m != 0]: reduced, selected and stored as
    the mask is; `idx = np.nonzero(m)[0]` used only as an index is the 1-d mask."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same_as_numpy(getattr(P, name), compiled(name), _X, mask)


def test_nonzero_extremes_and_their_empty_selection():
    assert_same_as_numpy(P.where_first_extremes, compiled("where_first_extremes"), _X, _M)
    with pytest.raises(ValueError, match="zero-size array"):
        P.where_first_extremes(_X, np.zeros(6, bool))
    with pytest.raises(ValueError, match="zero-size array"):
        compiled("where_first_extremes")(_X, np.zeros(6, bool))


def test_what_nonzero_leaves_of_data_dependent_shape_stays_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR107"):
        compiled("nonzero_read")(_X, _M)  # NumPy's selection itself, returned
    # (`len(idx)` of `idx = np.nonzero(m)[0]`, refused NPR004 here before, is the count of m's
    # nonzeros, a Python int: rules/mask_items.py, tests/test_masked_idioms.py)
    _, got = assert_same_as_numpy(P.nonzero_count, compiled("nonzero_count"), _X, _M)
    assert type(got) is int
    x2, m2 = np.arange(6.0).reshape(3, 2), np.array([[True, False], [True, True], [False, False]])
    P.nonzero_first_sum(x2, m2)  # NumPy: row 1 twice
    with pytest.raises(np2ref.Np2RefError, match="NPR107"):
        compiled("nonzero_first_sum")(x2, m2)


# -- masked reads kept in a name, the mask a parameter -------------------------------------------
_POLE = np.array([0.0, 1.5, 2.0, 0.0, 0.75, 3.0])  # zeros where the mask leaves them out
_KEEP = _POLE > 0


@pytest.mark.parametrize("name", ["inverse_selection_sum", "inverse_of_selection_sum", "repulsion_store",
                                  "repulsion_energy"])
@pytest.mark.parametrize("mask", [_KEEP, np.flatnonzero(_KEEP), np.zeros(6, bool)], ids=["bool", "int", "none"])
def test_selections_through_a_mask_parameter_match_numpy(name, mask):
    """`v = 1.0 / x[m]` and `e[m] = v ** -12` (v = x[m]) with m a parameter: on whole arrays
    under a boolean mask, NumPy's own reads under an integer index (npr_unmask, read_if_int)."""
    assert_same_as_numpy(getattr(P, name), compiled(name), _POLE, mask)


@pytest.mark.parametrize("mask", [_KEEP, np.flatnonzero(_KEEP)], ids=["bool", "int"])
def test_a_selection_beside_masked_reads_in_a_store_matches_numpy(mask):
    y = np.linspace(-1.0, 1.0, 6)
    assert_same_as_numpy(P.repulsion_store_mixed, compiled("repulsion_store_mixed"), _POLE, y, mask)


@pytest.mark.parametrize("name", ["inverse_selection_sum", "inverse_of_selection_sum", "repulsion_energy"])
def test_gradients_through_selections_that_would_meet_a_pole_are_numpys(name):
    """x is 0 where the mask leaves it out: computed on whole arrays, 1 / 0 and 0 ** -12 gave
    jax.grad 0 * inf = NaN there; the selections are guarded (npr_unselect(v, guard=True),
    npr_mask_guard) and the gradient is NumPy's central differences (0 at those elements)."""
    pure = compiled(name).pure
    with jax.enable_x64(True):
        grad = np.asarray(jax.grad(lambda a: pure(a, _KEEP)[0])(_POLE))
    fd = _central_differences(lambda y: getattr(P, name)(y, _KEEP), _POLE, eps=1e-7)
    assert np.all(np.isfinite(grad)) and np.allclose(grad, fd, rtol=1e-5, atol=1e-6)
    assert "guard=True" in compiled(name).source or "npr_mask_guard" in compiled(name).source


def test_selections_and_in_order_at_under_vmap_are_numpys_per_row():
    """jax.vmap of `.pure` over rows: each row's mask (a parameter) selects, guards and stores
    as NumPy does for that row; np.divide.at's loop runs per row."""
    x = np.stack([_POLE, _POLE[::-1] + 0.5])
    m = x > 0.6
    with jax.enable_x64(True):
        got = np.asarray(jax.vmap(lambda a, k: compiled("repulsion_store").pure(a, k)[0])(x, m))
        v = np.stack([np.linspace(1.1, 2.9, _I.size), np.linspace(3.0, 1.5, _I.size)])
        energies = np.asarray(jax.vmap(lambda b: compiled("divided_energy").pure(_POLE + 1, _I, b)[0])(v))
    assert np.allclose(got, np.stack([P.repulsion_store(a, k) for a, k in zip(x, m)]), rtol=1e-12)
    assert np.allclose(energies, [P.divided_energy(_POLE + 1, _I, b) for b in v], rtol=1e-12)
