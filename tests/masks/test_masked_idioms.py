"""Boolean-mask idioms of third-party code (tests/programs/masked_idioms.py) against NumPy:
results, every argument after the call, and the types of Python and NumPy scalars in the
results (conftest.ProgramChecks). Class-conditional statistics (`X[y == c].mean(axis=0)`,
`.var(axis=0)`, `X[y == c].shape[0]`), the first or last element of a selection
(`cdf[cdf > 0][0]`, `np.where(cdf > u)[0][0]`), thresholding then reductions, NaN handling by
hand. Floating sums under a mask are XLA's (docs/semantics.md, "Floating point": not NumPy's
pairwise order), compared to rounding by first_difference; counts and selected elements are
exact. An empty selection: NumPy's IndexError (an element), ValueError (max), nan with
NumPy's RuntimeWarnings (mean, var). Forms whose result has a data-dependent shape stay
refused with a code."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks, assert_same_as_numpy, converted_functions
from np2ref.verify.compare import first_difference

CHECKS = ProgramChecks("masked_idioms")
P, compiled, _same = CHECKS.module, CHECKS.compiled, CHECKS.same

R = np.random.default_rng(3)
X = R.normal(size=(12, 3))
Y3 = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 1])
Y2 = np.array([0, 1] * 6)
x = R.normal(size=20)
XN = x.copy()
XN[[2, 5]] = np.nan
XI = x.copy()
XI[3] = np.inf
CDF = np.array([0.0, 0.0, 0.2, 0.5, 1.0])
P4 = np.array([0.1, 0.2, 0.3, 0.4])

CASES = {
    # class-conditional statistics
    "class_means": (X, Y3, 3),
    "class_sums_counts": (X, Y3, 3),
    "class_priors": (Y3, 3),  # y[y == c].shape[0]: was NPR107
    "gaussian_nb_fit": (X, Y3, 3),  # Xc.var(axis=0): was NPR107
    "class_std": (X, Y3, 3),  # was NPR107
    "class_max": (X, Y3, 3),
    "kmeans_step": (X, X[:3].copy()),
    "kmeans_update": (X, Y3, X[:4].copy()),  # `if len(members) > 0:`, cluster 3 empty: was NPR030
    "kmeans_empty_checks": (X, Y3, X[:4].copy()),  # was NPR030
    "class_mean_literal": (X, Y2),
    "np_mean_axis": (X, Y3),
    "float32_class_means": (X.astype(np.float32), Y2),
    "int_class_means": (np.arange(24).reshape(12, 2), Y2),
    "class_means_positional_axis": (X, Y2),  # X[m].mean(0), np.mean(X[m], 0): was NPR107
    "np_sum_max_axis": (X, Y2),
    "sum_squares_axis0": (X, Y2),
    "bool_rows_sum": (X > 0, Y2),
    "one_axis_selection_along_axis0": (x, X, 0.0),  # was NPR107 ('only axis 0 of rows ...')
    "mask_with_slice_mean": (X, Y2),  # X[y == 1, :].mean(axis=0): was NPR107
    "class_stats_with_slices": (X, Y2),
    "len_selection_rows": (X, Y3, 3),  # was NPR107
    "masked_rows_count": (X, 0.0),  # was NPR107
    "masked_rows_sum": (X, 0.0),
    # the first or last element of a selection: all were NPR107 or NPR004
    "first_positive_cdf": (CDF,),
    "last_below": (x, 0.5),
    "first_index_nonzero": (x > 0.5,),
    "first_index_where": (x, 0.5),
    "first_argwhere": (x, 0.5),
    "sample_from_cdf": (P4, 0.45),
    "cumsum_masked_first": (np.abs(x), 2.0),
    "first_above_in_loop": (np.arange(6.0), np.array([0.5, 2.5])),
    "first_kept_after_store": (np.array([0.5, 1.5, -2.5, 3.5]),),  # was AttributeError (npr_sub form)
    "first_crossing": (np.array([0.0, 2.0, 3.0, 1.0, 5.0]), 1.5),  # idx = np.where(m)[0]; idx[0]: was NPR030/NPR004
    "first_crossings_flat": (np.arange(12.0).reshape(3, 4), 4.5),  # idx = np.flatnonzero(m); idx[0], len(idx)
    "empty_check_branch": (x, 0.0),  # `if sel.size == 0: return 0.0`: was NPR030
    "count_where": (x, 0.0),  # len(np.where(m)[0]), np.nonzero(m)[0].size: was NPR004
    # thresholding then reductions
    "positive_sum": (x,),
    "mean_of_mask": (x, x > 0),
    "double_masked": (x.copy(),),
    "count_nonzero_mask": (x, 0.2),
    "mask_sum_ratio": (x,),
    "bincount_minlength": (Y3, 5),
    "searchsorted_cdf": (P4, np.array([0.05, 0.5, 0.95])),
    "cumsum_mask_select_sum": (x, 0.0),
    "clip_then_mask": (2 * x,),
    "zscore_outliers": (np.r_[x, 9.0],),
    "zscore_keep_count": (np.r_[x, 9.0],),
    "masked_median": (x, 0.0),
    "masked_argmax": (x, 0.0),  # was NPR107
    "masked_max_min": (x, x > 0),
    "masked_ptp": (x, 0.0),  # sel.shape[0] of a selection name: was NPR107
    "int_masked_sum": (np.arange(11),),
    "masked_2d_mean": (X,),
    "masked_any_all": (np.abs(x), 0.5),
    "count_in_selection": (np.abs(x), 0.3),  # np.count_nonzero(x[m] > t): was NPR107
    "accuracy": (Y2[::-1].copy(), Y2),
    "threshold_energy": (x, 0.5),
    "deviation_max": (x, x > 0),
    "ifexp_masked_mean": (x, 0.0),
    "sqrt_masked_pow": (x.copy(),),
    "astype_masked_sum": (3 * x, 0.0),  # a cast of the masked reads: was NPR107 (test_mask_store_casts.py)
    # NaN and infinities by hand
    "nanmean_by_hand": (XN,),
    "finite_sum": (XI,),
    "replace_nan": (XN.copy(),),
    "fill_nan_with_mean": (XN.copy(),),
    "zero_non_finite": (np.r_[XI, np.nan],),
}


@pytest.mark.parametrize("name", list(CASES))
def test_program_matches_numpy(name):
    _same(name, *CASES[name])


def test_elements_of_selections_in_other_forms_match_numpy():
    # the k-th from either end, rows under a 1-d mask, a 2-d mask (C order), np.nonzero(m)[1]
    # of a 2-d m, argwhere's coordinates, flatnonzero from the end
    M = np.arange(12.0).reshape(3, 4)
    for t in (-1.0, 0.5):
        _same("items_of_selections", np.arange(6.0), M, t)


def test_a_conditional_expression_on_the_length_of_a_selection_matches_numpy():
    # `... if len(x[m]) > 0 else ...`: a value picked on array data (npr_ifexp), NPR030 before
    for t in (0.5, 9.0):
        _same("ifexp_on_selection_length", np.arange(5.0), t)


@pytest.mark.parametrize("values", [[1.0, 5.0, 3.0, 5.0, -2.0], [1.0, np.nan, 3.0, np.nan, -2.0],
                                    [-0.0, 0.0, -1.0, 0.0, 2.0], [np.inf, -np.inf, np.inf, 1.0, -np.inf],
                                    [3, 1, 3, 0, 1]], ids=["ties", "nan", "zeros", "inf", "int"])
def test_the_position_of_a_selections_extreme_is_numpys(values):
    # the first of equal extremes, the first NaN where one is selected, positions in the selection
    for m in ([False, True, True, True, False], [True, False, True, False, True]):
        _same("masked_arg_extremes", np.array(values), np.array(m))


ITEM_ERRORS = {  # NumPy's IndexError, its message, when the selection has no such element
    "first_positive_cdf": (np.zeros(4),),
    "last_below": (x, -9.0),
    "first_index_nonzero": (x > 9,),
    "first_index_where": (x, 9.0),
    "first_argwhere": (x, 9.0),
    "sample_from_cdf": (np.array([0.1, 0.2]), 0.9),
    "cumsum_masked_first": (np.abs(x), 1e9),
    "first_above_in_loop": (np.arange(6.0), np.array([0.5, 9.0])),  # the second iteration's
    "items_of_selections": (np.arange(6.0), np.arange(12.0).reshape(3, 4), 4.5),  # x[m][-2] of one
    "class_stats_with_slices": (x[:12], Y2),  # X[m, :] of a 1-d X: too many indices
    "masked_arg_extremes": (x, x > 9),  # ValueError: attempt to get argmax of an empty sequence
    "masked_max_min": (x, x > 9),  # ValueError: zero-size array to reduction operation maximum
    "class_max": (X, Y3, 4),
}


@pytest.mark.parametrize("name", list(ITEM_ERRORS))
def test_an_empty_selection_raises_numpys_error(name):
    args = ITEM_ERRORS[name]
    with pytest.raises((IndexError, ValueError)) as expected:
        getattr(P, name)(*args)
    with pytest.raises(expected.type, match="^" + re.escape(str(expected.value))):  # (JAX may add a note after it)
        compiled(name)(*args)


@pytest.mark.parametrize("name, args", [
    ("mean_of_mask", (x, x > 9)), ("class_means", (X, Y3, 4)), ("gaussian_nb_fit", (X, Y3, 4)),
    ("class_std", (X, Y3, 4)), ("masked_median", (x, 9.0)), ("ifexp_masked_mean", (x, 9.0)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_an_empty_mean_or_spread_is_nan_with_numpys_warnings(name, args):
    def run(fn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fn(*args)
        return result, sorted(str(w.message) for w in caught if issubclass(w.category, RuntimeWarning))
    expected, numpy_warnings = run(getattr(P, name))
    got, warned = run(compiled(name))
    assert first_difference(expected, got, "result") is None  # nan where NumPy's is, the rest to rounding
    assert warned == numpy_warnings and (numpy_warnings or name == "ifexp_masked_mean")


@pytest.mark.parametrize("name", ["ifexp_masked_mean", "first_crossing", "empty_check_branch"])
def test_a_python_number_from_a_branch_on_a_selection_stays_a_python_number(name):
    """`np.mean(x[m]) if m.any() else 0.0`, `return -1, -1, 0` beside `return above[0], ...` after
    `if len(above) == 0:`: the path the data takes decides Python's number or NumPy's scalar (the
    branch's predicate comes out of the run beside the value: rt/result_shape.py `chosen`); it
    came back NumPy's scalar on both paths before. Both paths, in one compiled program."""
    for t in (9.0, -9.0, 9.0):
        _same(name, x, t)


REFUSED = {  # a result whose shape depends on the data, or a form not translated yet
    "unique_counts": ((Y3,), "NPR004"),
    "sorted_selection": ((x, 0.0), "NPR107"),
    "masked_cumsum": ((x, 0.0), "NPR107"),
    "masked_slice_head": ((x, 0.0), "NPR107"),
    "masked_row_means_axis1": ((X, Y2), "NPR107"),
    "masked_percentile": ((x, 0.0), "NPR107"),
    "masked_median_axis0": ((X, Y2), "NPR107"),
    "within_class_scatter": ((X, Y3, 3), "NPR107"),
    "masked_columns_sum": ((X, 0.0), "NPR107"),
    "weighted_masked_average": ((x, np.abs(x)), "NPR107"),
    "keepdims_masked_sum": ((X, Y2), "NPR107"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_forms_np2ref_cannot_keep_exact_are_refused_with_a_code(name):
    args, code = REFUSED[name]
    with pytest.raises(np2ref.Np2RefError, match=code):
        compiled(name)(*args)


CONVERTED = ["first_positive_cdf", "sample_from_cdf", "gaussian_nb_fit", "first_crossing", "class_stats_with_slices"]


def test_converted_file_runs_as_the_original(tmp_path):
    converted = converted_functions(P, CONVERTED, tmp_path, "masked_idioms")
    for name in CONVERTED:
        assert_same_as_numpy(getattr(P, name), getattr(converted, name), *CASES[name])
    with pytest.raises(IndexError, match="^index 0 is out of bounds for axis 0 with size 0"):
        converted.first_positive_cdf(np.zeros(4))
