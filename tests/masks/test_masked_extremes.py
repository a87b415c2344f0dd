"""Reductions of a masked read (`x[m].max()`, `.min()`, `.any()`, `.mean()` of `x[m]`), with
NumPy's NaN and tie rules and its error or warning for an empty selection; masked reads kept
in a name and only reduced translate, kept as arrays they are refused (NPR107). Differential:
the original function against np2ref.compile of it (tests/programs/extremes_and_math.py)."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program
from np2ref.diagnostics import Np2RefError

P = program("extremes_and_math")


def _line(fn_name: str, text: str) -> int:
    """The line of `text` inside the program's function `fn_name`."""
    lines = open(P.__file__).read().splitlines()
    start = next(i for i, t in enumerate(lines) if t.startswith(f"def {fn_name}("))
    return next(i for i, t in enumerate(lines[start:], start) if text in t) + 1


def _refused(fn, *args):
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn)(*args)
    return info.value.diagnostics[0]



X = np.array([0.5, -1.0, 3.0, np.nan, 2.0, -0.25])


def test_masked_max_and_min_with_nan_and_ties():
    f = np2ref.compile(P.masked_extremes)
    assert_same_as_numpy(P.masked_extremes, f, X, 0.0)  # nan not selected by x > 0: dropped
    assert_same_as_numpy(P.masked_extremes, f, np.array([1.0, 2.0, 2.0, -3.0]), 0.5)
    _, got = assert_same_as_numpy(P.masked_nan_max, np2ref.compile(P.masked_nan_max), X, 0.0)
    assert np.isnan(got[0]) and np.isnan(got[1])  # a selected nan propagates, as in NumPy


def test_masked_max_of_an_empty_selection_raises_numpys_valueerror():
    f = np2ref.compile(P.masked_extremes)
    x = np.array([-1.0, -2.0, 0.5])
    for call in (P.masked_extremes, f):
        with pytest.raises(ValueError, match="^zero-size array to reduction operation maximum which has no identity$"):
            call(x, 1.0)
    f2 = np2ref.compile(P.masked_int_extremes)
    k = np.array([1, 4, 7, 8], dtype=np.int32)
    for call in (P.masked_int_extremes, f2):  # max and min fine, then the third one is empty
        with pytest.raises(ValueError, match="^zero-size array to reduction operation maximum"):
            call(k)
    with pytest.raises(ValueError, match="^zero-size array to reduction operation minimum"):
        np2ref.compile(P.masked_min)(np.array([5.0, 6.0]), 10.0)


def test_masked_int_extremes_keep_the_dtype():
    k = np.array([1, 4, 7, 108, 9], dtype=np.int32)
    expected, got = assert_same_as_numpy(P.masked_int_extremes, np2ref.compile(P.masked_int_extremes), k)
    assert [np.asarray(v).dtype for v in got] == [np.asarray(v).dtype for v in expected]


def test_masked_any_and_all_of_empty_selections():
    f = np2ref.compile(P.masked_flags)
    for x, h in [(X, 0.0), (np.array([1.0, 2.0]), 5.0), (np.array([0.0, 2.0]), -1.0)]:
        assert_same_as_numpy(P.masked_flags, f, x, h)


def test_masked_max_inside_a_loop_checks_each_trip():
    f = np2ref.compile(P.masked_max_in_a_loop)
    assert_same_as_numpy(P.masked_max_in_a_loop, f, np.array([0.5, 4.0, 2.5]), 3)
    with pytest.raises(ValueError, match="reduction operation maximum"):
        f(np.array([0.5, 1.5, 2.5]), 4)  # x > 3 selects nothing


def test_masked_mean_of_an_empty_selection_is_nan():
    f = np2ref.compile(P.masked_mean)
    assert_same_as_numpy(P.masked_mean, f, X, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(P.masked_mean(X, 10.0)) and np.isnan(f(X, 10.0))


def test_a_masked_read_bound_to_a_name_and_only_reduced_translates():
    """`vals = x[m]` then `vals.mean()` (npbench's azimint_naive) was refused NPR107: the name
    keeps the values of x and of the mask when it was bound, written afterwards or not."""
    f = np2ref.compile(P.masked_named, host_below=0)
    edges = np.array([-1.0, 0.0, 0.5, 2.0])
    assert_same_as_numpy(P.masked_named, f, np.array([0.25, -0.5, 1.5, 0.75, -0.25, 0.1]), edges)
    with pytest.raises(ValueError, match="zero-size array"):  # neg.min() of nothing, as NumPy
        f(np.array([0.25, 0.3, 1.5]), edges)


def test_masked_reads_kept_as_arrays_and_complex_extremes_stay_refused():
    d = _refused(P.masked_kept, X)
    assert (d.code, d.line) == ("NPR107", _line("masked_kept", "vals = x[x > 0]"))
    assert "x[m].max()" in d.hint
    with pytest.raises((Np2RefError, NotImplementedError), match="NPR107"):
        np2ref.compile(P.masked_complex_max)(np.array([1 + 2j, -1j, 3 - 1j]))
