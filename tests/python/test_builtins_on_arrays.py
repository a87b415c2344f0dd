"""Python's builtins on array values inside a compiled function (issue 19): `bool` of array
data, NumPy's named-tuple results, an element of an array read, rebound or decremented as a
value, and builtin `max`/`min`/`any`/`all` with Python's ties, NaN and signed zeros.
Differential: the original against np2ref.compile of it (tests/programs/closures_and_builtins.py)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program
from np2ref.diagnostics import Np2RefError

P = program("closures_and_builtins")


def _truth_scaled(x):
    return x * bool(x[0]), np.float64(bool(x[1:2]))


def _truth_of_two(x):
    return x * bool(x[:2])


def test_bool_of_array_data_is_pythons_truth_value():
    """`bool(x[0])` was refused as a branch (NPR030); it is `x != 0` (NaN true), and the truth of
    an array of several elements raises NumPy's ValueError."""
    compiled = np2ref.compile(_truth_scaled, host_below=0)
    for v in ([0.0, 2.0], [np.nan, -0.0], [-1.5, 0.0]):
        for got, want in zip(compiled(np.array(v)), _truth_scaled(np.array(v))):
            np.testing.assert_array_equal(np.asarray(got), want)
    with pytest.raises(ValueError, match="more than one element"):
        np2ref.compile(_truth_of_two, host_below=0)(np.ones(3))


def _decomposed(s):
    return np.linalg.eigh(s), np.linalg.slogdet(s)


def test_numpys_named_tuple_results_come_back_as_numpys():
    """`return np.linalg.eigh(s)` crashed (TypeError from rebuilding the named tuple with one
    argument); the results are NumPy's EighResult and SlogdetResult, fields and values."""
    s = np.array([[2.0, 0.5], [0.5, 1.0]])
    (w0, v0), det0 = _decomposed(s)
    got = np2ref.compile(_decomposed, host_below=0)(s)
    assert type(got[0]) is type(_decomposed(s)[0]) and type(got[1]) is type(det0)
    np.testing.assert_allclose(got[0].eigenvalues, w0, rtol=1e-12)
    np.testing.assert_allclose(np.abs(got[0].eigenvectors), np.abs(v0), rtol=1e-12)
    assert got[1].sign == det0.sign


def _normalise_by_max(x):
    m = x[0, 0]
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > m:
                m = x[i, j]
    x /= m
    return m


def _fold_negatives(x):
    for i in range(x.size):
        if x[i] > 0:
            m = x[i]
        else:
            m = 0.5
        x[i] = m + 1
    return x


def _row_or_other(a, c):
    r = a[0]
    if c[0] > 0:
        r = a[1]
    a[1, 0] = 9.0
    return r.sum()


def test_an_element_of_a_written_array_rebound_in_a_branch_is_a_value():
    """`if x[i, j] > m: m = x[i, j]` then `x /= m` was refused NPR030 (m was taken for a view of
    the written x, and a view cannot be rebound in a lax.cond); with every axis indexed it is
    NumPy's element, a copy. A read with axes left is a view in NumPy: refused when traced."""
    x = np.array([[0.5, 3.0, 1.0], [2.0, -1.0, 2.5]])
    assert_same_as_numpy(_normalise_by_max, np2ref.compile(_normalise_by_max, host_below=0), x)
    assert_same_as_numpy(_fold_negatives, np2ref.compile(_fold_negatives, host_below=0), np.array([1.0, -2.0, 3.0]))
    with pytest.raises(Np2RefError, match="NPR205"):
        np2ref.compile(_row_or_other, host_below=0)(np.ones((2, 3)), np.ones(1))


def _find_root(parent, i):
    while parent[i] != i:  # union-find with path halving: `i` a parameter, rebound to an element
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _unite(parent, edges):
    joined = 0
    for k in range(len(edges)):
        ra, rb = _find_root(parent, edges[k, 0]), _find_root(parent, edges[k, 1])
        if ra != rb:
            parent[rb] = ra
            joined += 1
    return joined


def _follow(x, k, n):
    for _ in range(n):
        k = x[k]  # a name holding any index: an element, a copy or (refused) a view
    x[0] = -1
    return k


def _pick(x, k):
    k = x[k]
    x[0] = -1
    return k


def test_an_element_read_at_any_integer_index_is_a_value():
    """`i = parent[i]` in a `while` (union-find) was NPR011 ("the written array `i` is rebound"):
    only loop variables and literals made an element read. Any index but a slice, `...` or
    `None` by its form reads NumPy's element when every axis is indexed; with axes left (a view in
    NumPy) or an Ellipsis in a name (a 0-d view) it is refused when traced (NPR205)."""
    edges = np.random.default_rng(3).integers(0, 12, (9, 2))
    assert_same_as_numpy(_unite, np2ref.compile(_unite, host_below=0), np.arange(12), edges)
    follow = np2ref.compile(_follow, host_below=0)
    assert_same_as_numpy(_follow, follow, np.array([2, 0, 1]), 1, 3)
    assert_same_as_numpy(_follow, follow, np.array([2, 0, 1]), np.array([1, 2]), 1)  # a copy
    with pytest.raises(Np2RefError, match="NPR205"):
        follow(np.ones((2, 3), int), 1, 1)  # NumPy's k: a row, a view of x
    pick = np2ref.compile(_pick, host_below=0)
    assert_same_as_numpy(_pick, pick, np.array([2, 0, 1]), 2)
    with pytest.raises(Np2RefError, match="NPR205"):
        pick(np.ones(3, int), (0, Ellipsis))  # NumPy's k: a 0-d view of x, -1 after the store


def _backtrack(a, b):
    n, m = len(a), a.shape[0]
    L = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):  # `i` then rebound to n, which `i -= 1` rebinds (an int, not a buffer)
        L[i + 1] = L[i] + (a[i] == b[i])
    i, j = n, m
    while i > 0 and j > 1:
        i -= 1
        j -= 2
        L[i] += j
    return L, i, j


def test_an_int_from_len_or_a_shape_rebound_and_decremented_is_no_array():
    """`i, j = n, m` after `n = len(a)`, then `i -= 1`: the analysis gave len()'s result an
    allocation of its own, shared by n and i, so `i -= 1` looked like an in-place write through
    both, and the `for i` loop variable a view of a written array (NPR204, LCS backtracking)."""
    a, b = np.array([1, 2, 3, 2, 1]), np.array([1, 0, 3, 2, 0])
    assert_same_as_numpy(_backtrack, np2ref.compile(_backtrack, host_below=0), a, b)


# ---- builtins on array values: Python's ties, NaN and signed zeros ---------------------------
def _same_values(fn, compiled, *args):
    want, got = fn(*args), compiled(*args)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
        assert np.signbit(np.asarray(g)) == np.signbit(np.asarray(w))
        assert np.isnan(np.asarray(g)) == np.isnan(np.asarray(w))


MAX_INPUTS = [[0.5, 2.0, -1.0], [np.nan, 1.0, 3.0], [1.0, np.nan, np.nan], [-0.0, 0.0, -0.0],
              [0.0, -0.0, 0.0], [3.0, 3.0, np.nan]]


def test_builtin_max_and_min_keep_pythons_nan_and_tie_order():
    compiled = np2ref.compile(P.builtin_max_min)
    for v in MAX_INPUTS:
        _same_values(P.builtin_max_min, compiled, np.array(v))


def test_builtin_max_carried_through_a_loop():
    compiled = np2ref.compile(P.builtin_max_in_loop)
    for v in MAX_INPUTS:
        _same_values(lambda x: (P.builtin_max_in_loop(x),), lambda x: (compiled(x),), np.array(v))


def test_builtin_max_of_one_array_folds_in_pythons_order():
    compiled = np2ref.compile(P.builtin_max_of_array)
    for v in MAX_INPUTS:
        _same_values(P.builtin_max_of_array, compiled, np.array(v))


def test_builtin_any_and_all_on_arrays():
    compiled = np2ref.compile(P.builtin_any_all)
    for v in ([0.0, 2.0], [0.0, 0.0], [np.nan, 0.0], [1.0, -1.0]):
        _same_values(P.builtin_any_all, compiled, np.array(v))


def test_builtin_max_of_rows_raises_numpys_ambiguity_error():
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match="truth value of an array") as want:
        P.builtin_max_of_rows(x)
    with pytest.raises(ValueError, match="truth value of an array") as got:
        np2ref.compile(P.builtin_max_of_rows)(x)
    assert str(want.value) == str(got.value)
