"""Indices made by np.nonzero / np.where(m) go where the mask goes, and masked reads kept in a
name through a mask that is a parameter (`v = 1.0 / x[m]`, `e[m] = v ** -12`): differential
against the original (tests/programs/ufunc_at_and_selections.py), jax.grad of `.pure` against
central differences where the mask leaves a pole out, and jax.vmap per row."""

import functools
import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, central_differences, program

P = program("ufunc_at_and_selections")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


_I = np.array([0, 1, 1, 3, 1, 0, 4, 1, 1, 1])  # np.divide.at's indices (tests/rules/test_ufunc_at.py)


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
    # nonzeros, a Python int: rules/mask_items.py, tests/masks/test_masked_idioms.py)
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
        grad = np.asarray(jax.jit(jax.grad(lambda a: pure(a, _KEEP)[0]))(_POLE))  # jitted (docs/ci.md)
    fd = central_differences(lambda y: getattr(P, name)(y, _KEEP), _POLE, eps=1e-7)
    assert np.all(np.isfinite(grad)) and np.allclose(grad, fd, rtol=1e-5, atol=1e-6)
    assert "guard=True" in compiled(name).source or "npr_mask_guard" in compiled(name).source


def test_selections_and_in_order_at_under_vmap_are_numpys_per_row():
    """jax.vmap of `.pure` over rows: each row's mask (a parameter) selects, guards and stores
    as NumPy does for that row; np.divide.at's loop runs per row."""
    x = np.stack([_POLE, _POLE[::-1] + 0.5])
    m = x > 0.6
    with jax.enable_x64(True):
        got = np.asarray(jax.jit(jax.vmap(lambda a, k: compiled("repulsion_store").pure(a, k)[0]))(x, m))
        v = np.stack([np.linspace(1.1, 2.9, _I.size), np.linspace(3.0, 1.5, _I.size)])
        energies = np.asarray(jax.jit(jax.vmap(lambda b: compiled("divided_energy").pure(_POLE + 1, _I, b)[0]))(v))
    assert np.allclose(got, np.stack([P.repulsion_store(a, k) for a, k in zip(x, m)]), rtol=1e-12)
    assert np.allclose(energies, [P.divided_energy(_POLE + 1, _I, b) for b in v], rtol=1e-12)
