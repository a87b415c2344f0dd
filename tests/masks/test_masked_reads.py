"""Reads through a boolean mask reduced to a number: the count (`len(x[m])`, `np.size`), the
spread (`.std()`, `.var()`), besides the sums and extremes (rt/masks.py npr_masked_reduce):
NumPy's selection has a data-dependent length, never made; its reductions are exact."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def fraction_above(x, t):
    return len(x[x > t]) / len(x)


def spread(x, m):
    return x[m].std(), np.var(x[m]), len(x[m]), np.size(x[m])


def named_spread(x):
    v = x[x > 0.3]
    return v.var(), np.std(v), len(v)


def rows_picked(a, m):
    return len(a[m]), np.size(a[m]), a[m].std()


def picked_rows(a, idx):
    v = a[idx]
    return len(v), np.size(v), v.sum()


def integer_spread(k):
    return k[k > 2].var()


RNG = np.random.default_rng(7)
X = RNG.random(40)


@pytest.mark.parametrize("fn, args", [
    (fraction_above, (X, 0.5)), (spread, (X, X > 0.4)), (spread, (X.astype(np.float32), X > 0.4)),
    (named_spread, (X,)), (rows_picked, (RNG.random((4, 3)), np.array([True, False, True, True]))),
    (rows_picked, (RNG.random((4, 3)), np.array([0, 2, 2]))), (integer_spread, (np.arange(9),)),
    (picked_rows, (RNG.random((4, 3)), np.array([0, 2, 2]))), (picked_rows, (RNG.random((4, 3)), np.array([True, False, True, True]))),
], ids=lambda v: getattr(v, "__name__", ""))
def test_masked_counts_and_spreads_match_numpy(fn, args):
    compiled = np2ref.compile(fn, host_below=0)
    expected, got = fn(*args), compiled(*args)
    expected, got = (expected, got) if isinstance(expected, tuple) else ((expected,), (got,))
    for e, g in zip(expected, got):
        assert type(g) is type(e)  # len() and np.size() are Python ints, as in NumPy
        np.testing.assert_allclose(g, e, rtol=1e-6 if np.asarray(e).dtype == np.float32 else 1e-13)


def test_spread_of_an_empty_selection_warns_as_numpy():
    compiled = np2ref.compile(named_spread, host_below=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        var, std, n = compiled(np.zeros(5))
    assert np.isnan(var) and np.isnan(std) and n == 0 and type(n) is int
    assert any("Degrees of freedom" in str(w.message) for w in caught)


def masked_norm(x):
    return np.sqrt((x[x > 0.3] ** 2).sum())


def largest_magnitude(x, m):
    return np.abs(x[m]).max()


def paired(x, y):
    m = x > 0.5
    return (x[m] * y[m]).sum(), np.std(x[m] - y[m]), (x[x > 0.2] - 0.2).mean()


def gathered_times_weights(x, idx, w):
    return np.sum(np.sin(x[idx]) * w)  # an integer index: w pairs with the gathered values


def mixed_with_whole(x, y):
    return (x[x > 0.5] - y).sum()


@pytest.mark.parametrize("fn, args", [
    (masked_norm, (X,)), (largest_magnitude, (X - 0.5, X > 0.4)), (paired, (X, RNG.random(40))),
    (largest_magnitude, (X - 0.5, np.array([3, 1, 3]))), (gathered_times_weights, (X, np.array([5, 0, 5]), X[:3])),
], ids=lambda v: getattr(v, "__name__", ""))
def test_elementwise_expressions_of_masked_reads_reduce_as_numpy(fn, args):
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def test_a_masked_read_mixed_with_a_whole_array_is_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR104"):  # NumPy: a broadcast error, or a data-dependent sum
        np2ref.compile(mixed_with_whole, host_below=0)(X, RNG.random(40))


def medians(x, k):
    v = x[x > 0.2]
    return (np.median(x[x > 0.5]), np.median(v), np.median(np.abs(x[x < 0.9] - 0.5)), np.median(k[k > 3]),
            np.median(x[~(x < 0.1)]))  # a nan is selected there


@pytest.mark.parametrize("x", [X, X[:7], np.where(X > 0.8, np.nan, X), X.astype(np.float32)], ids=["even", "odd", "nan", "f32"])
def test_median_of_masked_reads_matches_numpy(x):
    k = np.arange(10)
    expected, got = medians(x, k), np2ref.compile(medians, host_below=0)(x, k)
    for e, g in zip(expected, got):
        assert np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(g, e)


def test_median_of_an_empty_selection_is_nan_with_numpys_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = np2ref.compile(medians, host_below=0)(np.zeros(5), np.arange(10))
    assert np.isnan(got[0]) and any("Mean of empty slice" in str(w.message) for w in caught)


def named_expressions(x, y, k):
    # third-party analysis code: a selection kept in a name, then arithmetic on it, reduced
    m = x > 0.3
    v = x[m]
    w = y[m]
    centred = v - v.mean()
    rms = np.sqrt(np.mean(v ** 2))
    return (np.sum(v * w), rms, (centred / k).max(), np.abs(v - 0.5).min(), np.median(v * 2),
            np.sum(v + x.shape[0]), centred.size, len(w))


def size_then_branch(x):
    pos = x[x > 0.5]
    n = pos.size
    if n > 0:
        return np.sum(np.log(pos)) / n
    return 0.0


def selections_through_two_masks(x, y):
    v = x[x > 0.3]
    w = y[x > 0.3]  # NumPy pairs by position; two masks traced apart are not known to be one
    return np.sum(v * w)


def selection_times_whole(x, y):
    v = x[x > 0.3]
    return np.sum(v * y)


@pytest.mark.parametrize("x", [X, X.astype(np.float32), np.zeros(6)], ids=["f64", "f32", "empty"])
def test_named_selections_in_elementwise_expressions_reduce_as_numpy(x):
    # `v = x[m]` was only taken when every use was a bare reduction (`v.sum()`): `(v ** 2).sum()`,
    # `v.size`, `w = v - v.mean()` were NPR107
    y = np.linspace(-1.0, 1.0, x.size).astype(x.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the empty selection's mean and max, NumPy's own
        if x.any():
            _, got = assert_same_as_numpy(named_expressions, np2ref.compile(named_expressions, host_below=0), x, y, 2.0)
            assert type(got[-2]) is int and type(got[-1]) is int  # sizes are Python ints, as in NumPy
        for arg in (x, x * 0.5 + 0.5) if x.dtype == np.float64 else ():  # (float32: a float32 or 0.0, NPR128)
            assert_same_as_numpy(size_then_branch, np2ref.compile(size_then_branch, host_below=0), arg)


def test_selections_that_numpy_pairs_by_position_only_are_refused():
    for fn in (selections_through_two_masks, selection_times_whole):
        with pytest.raises(np2ref.Np2RefError, match="NPR104"):
            np2ref.compile(fn, host_below=0)(X, RNG.random(40))


def selection_minus_axis_mean(x, X):
    v = x[x > 0.5]
    return np.sum(v - X.mean(axis=0))  # an array beside the selection: NumPy pairs it by position


def test_a_reduction_along_an_axis_beside_a_selection_is_no_scalar():
    with pytest.raises(np2ref.Np2RefError, match="NPR107"):
        np2ref.compile(selection_minus_axis_mean, host_below=0)(np.array([0.9, 0.1, 0.7]), np.arange(6.0).reshape(2, 3))


def bound_expression_of_masked_reads(r2, rc2, scale):
    # Lennard-Jones style: the masked read inside the binding's expression, then only reduced
    inside = r2 < rc2
    inv6 = (scale / r2[inside]) ** 3
    return np.sum(4.0 * (inv6 * inv6 - inv6)), inv6.size, np.mean(inv6 - 1.0)


CUT = np.array([True, False, True, True, False, True])


def bound_expression_through_a_known_mask(x):
    v = np.sqrt(x[CUT]) * 2.0
    return v.sum(), len(v)


def bound_expression_beside_a_whole_array(x, y):
    w = x[x > 0.3] * y  # y pairs with the selection by position in NumPy
    return np.sum(w)


@pytest.mark.parametrize("rc2", [1.0, -1.0, 3.0], ids=["some", "none", "all"])
def test_a_name_bound_to_an_expression_of_masked_reads_reduces_as_numpy(rc2):
    # `inv6 = (1.0 / r2[inside]) ** 3` then `np.sum(...inv6...)` was NPR107 (only `v = x[m]` itself
    # was kept as a selection)
    r2 = RNG.random(30) * 2.0 + 0.1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the empty selection's mean: nan with NumPy's warnings
        expected, got = assert_same_as_numpy(bound_expression_of_masked_reads,
                                             np2ref.compile(bound_expression_of_masked_reads, host_below=0), r2, rc2, 1.5)
    assert type(got[1]) is int
    assert_same_as_numpy(bound_expression_through_a_known_mask,
                         np2ref.compile(bound_expression_through_a_known_mask, host_below=0), RNG.random(6))


def test_an_expression_of_masked_reads_with_a_whole_array_is_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR104"):
        np2ref.compile(bound_expression_beside_a_whole_array, host_below=0)(X, RNG.random(40))


def centre_selected(x, m):
    x[m] = x[m] - x[m].mean()  # the selection's own mean, one value, inside a masked store
    x[~m] *= 0.5
    return x


def standardise_selected(x, lo):
    sel = x > lo
    x[sel] = (x[sel] - np.mean(x[sel])) / x[sel].std()
    return x


@pytest.mark.parametrize("fn, args", [
    (centre_selected, (X[:10], X[:10] < 0.5)), (centre_selected, (X[:10], X[:10] < -1.0)),
    (centre_selected, (X[:10], np.array([1, 3, 3]))), (centre_selected, (RNG.random((3, 4)), np.array([True, False, True]))),
    (standardise_selected, (X[:10], 0.3)), (standardise_selected, (X[:10], 2.0)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_a_masked_store_of_the_selection_minus_its_reduction_matches_numpy(fn, args):
    # `x[m] = x[m] - x[m].mean()` was NPR107: a reduction in a masked store's value was no leaf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an empty selection's mean: nan, with NumPy's warnings
        assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def store_beside_a_parameter_mask(a, m, b):
    a[m] = a[m] + b  # b pairs with a[m] in NumPy
    return a


def aug_store_beside_a_parameter_mask(a, m, b):
    a[m] += b * a[m]
    return a


def selection_beside_an_array(x, b):
    v = x[x > 0] + b
    w = x[x > 0]
    return v.sum() + np.sum(w * b) + np.sum(x[x > 0] * b)


def store_of_a_selection_beside_an_array(a, b):
    m = a > 0
    v = a[m]
    a[m] = v * b
    return a


@pytest.mark.parametrize("fn", [store_beside_a_parameter_mask, aug_store_beside_a_parameter_mask,
                                selection_beside_an_array, store_of_a_selection_beside_an_array])
def test_an_array_of_the_selections_length_beside_masked_reads_is_refused_with_a_hint(fn):
    # NumPy pairs b with the 2 selected elements; the whole-array form would pair it with the 3
    # elements of x (a raw JAX broadcasting error before: npr_mask_leaf refuses it first). A
    # scalar b is NumPy's value.
    x, b = np.array([1.0, -2.0, 3.0]), np.array([10.0, 20.0])
    args = (x, x > 0) if "parameter" in fn.__name__ else (x,)
    c = np2ref.compile(fn, host_below=0)
    with pytest.raises(np2ref.Np2RefError, match="NPR104 an array beside masked reads") as caught:
        c(*args, b)
    diagnostic = caught.value.diagnostics[0]
    body = inspect.getsource(fn).splitlines()
    assert " b" in body[diagnostic.line - fn.__code__.co_firstlineno]  # the line that uses b first
    assert "`a[m] = a[m] + b[m]`" in diagnostic.hint
    assert_same_as_numpy(fn, c, *args, 2.5)


def rows_of_an_expression(d, r2, rc2):
    inside = r2 < rc2
    return np.sum(d[inside] / r2[inside][:, None], axis=0), np.mean(d[inside] * 2.0, axis=0)


def test_an_expression_of_masked_reads_reduced_along_the_selected_axis_matches_numpy():
    # `np.sum(d[inside] / r2[inside][:, None], axis=0)` (a pair force) was NPR107: only a plain
    # masked read was reduced along axis 0
    d, r2 = RNG.random((8, 3)), RNG.random(8)
    c = np2ref.compile(rows_of_an_expression, host_below=0)
    assert_same_as_numpy(rows_of_an_expression, c, d, r2, 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the mean of no rows: nan, with NumPy's warnings
        assert_same_as_numpy(rows_of_an_expression, c, d, r2, -1.0)


def ufunc_of_a_selection(x):
    v = x[x > 0.3]
    w = np.sqrt(v) - v.mean()  # a ufunc of the selection in a derived selection's binding
    return np.sum(w ** 2), len(w)


def test_a_ufunc_of_a_selection_name_is_a_derived_selection():
    # `w = np.sqrt(v)` was NPR107 at v's binding: v's use inside a call's argument counted as a
    # reduction's only (rules/selections.py _Occurrences)
    c = np2ref.compile(ufunc_of_a_selection, host_below=0)
    for x in (RNG.random(12), RNG.random(5) * 0.2):  # some selected, none
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # v.mean() of no elements: nan, with NumPy's warnings
            assert_same_as_numpy(ufunc_of_a_selection, c, x)
