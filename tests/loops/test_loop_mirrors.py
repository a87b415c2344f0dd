"""Independent loops that end with mirror copies `R[j, a] = R[a, j]` (rewrite/mirrors.py, npr_vfor's
`mirror=`; issue 39): the symmetric fills of covariance and correlation run as lanes plus one copy
of a row into a column, against NumPy (results, the mutated arguments, dtypes) and the loop."""

import inspect

import numpy as np
import pytest

import np2ref
import np2ref.rt.vectorise as V
from conftest import assert_numpys_bits, on_tpu


def sym_fill(S, x):
    n = S.shape[0]
    for i in range(n):
        for j in range(i, n):
            S[i, j] = x[i] * x[j] + i - j
            S[j, i] = S[i, j]


def covariance(data):
    n, m = data.shape
    mean = data.mean(axis=0)
    d = data - mean
    cov = np.zeros((m, m))
    for i in range(m):
        for j in range(i, m):
            cov[i, j] = (d[:, i] * d[:, j]).sum() / (n - 1)
            cov[j, i] = cov[i, j]
    return cov


def correlation(data):
    n, m = data.shape
    d = (data - data.mean(axis=0)) / data.std(axis=0)
    corr = np.empty((m, m), dtype=np.float32)
    for i in range(m - 1):
        corr[i, i] = 1.0
        for j in range(i + 1, m):
            corr[i, j] = (d[:, i] * d[:, j]).sum() / n
            corr[j, i] = corr[i, j]
    corr[m - 1, m - 1] = 1.0
    return corr


def row_k(S, x, k):
    for j in range(S.shape[1]):
        S[k, j] = x[j] * 2.0
        S[j, k] = S[k, j]


def copy_then_more(S, x):
    for j in range(S.shape[0]):
        S[0, j] = x[j]
        S[j, 0] = S[0, j]
        S[0, j] += 1.0  # after the copy: not a trailing copy


def copy_of_another_row(S, x, k):
    for j in range(S.shape[0]):
        S[1, j] = x[j]
        S[j, k] = S[k, j]  # the copy of a row no iteration owns


def copy_beside_column_read(S):
    for j in range(S.shape[0]):
        S[2, j] = S[3:, j].sum()  # reads rows below 2, where the copies write column 2
        S[j, 2] = S[2, j]


RNG = np.random.default_rng(11)
CASES = [
    (sym_fill, lambda: (RNG.standard_normal((5, 5)), RNG.standard_normal(5)), True),
    (covariance, lambda: (RNG.standard_normal((9, 4)),), False),
    (correlation, lambda: (RNG.standard_normal((9, 5)),), False),
    (row_k, lambda: (RNG.standard_normal((4, 4)), RNG.standard_normal(4), 2), True),
    (row_k, lambda: (RNG.standard_normal((4, 4)), RNG.standard_normal(4), -1), True),
    (row_k, lambda: (RNG.standard_normal((4, 4)).astype(np.int32), RNG.standard_normal(4), 0), True),
]


def _converted(fn) -> str:
    return np2ref.convert_source("import numpy as np\n\n" + inspect.getsource(fn)).code


def _run(fn, args, vectorise):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    if vectorise is None:
        out = fn(*copies)
    else:
        V.NPR_VECTORISE = vectorise
        try:
            out = np2ref.compile(fn)(*copies)
        finally:
            V.NPR_VECTORISE = True
    return [np.asarray(out)] * (out is not None) + [a for a in copies if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("fn, make, exact", CASES, ids=[f"{c[0].__name__}{k}" for k, c in enumerate(CASES)])
def test_mirrors_against_numpy_and_the_loop(fn, make, exact):
    assert "mirror=(0,)" in _converted(fn)
    args = make()
    want, lanes, loop = _run(fn, args, None), _run(fn, args, True), _run(fn, args, False)
    for w, got, looped in zip(want, lanes, loop):
        assert got.dtype == w.dtype
        if exact:  # the same elementwise operations: the loop's bits, and NumPy's
            assert_numpys_bits(got, looped)
            assert_numpys_bits(got, w)
        else:  # a sum in each lane: XLA's order, within an ulp or two
            np.testing.assert_allclose(got, w, rtol=1e-5 if w.dtype == np.float32 else 1e-13, atol=1e-6)
            np.testing.assert_allclose(got, looped, rtol=1e-5 if w.dtype == np.float32 else 1e-13, atol=1e-6)


def test_the_copies_leave_no_loop():
    """The inner loops are lanes and copies, the outer loop lanes over rows with one copy of the
    upper part into the lower (rewrite/tri_mirrors.py; a lanes trace that fails runs the loop:
    exact, slow)."""
    jax = pytest.importorskip("jax")
    for fn, make, _ in CASES[:3]:
        with jax.enable_x64(True):
            text = str(jax.make_jaxpr(np2ref.compile(fn).pure)(*make()))
        assert text.count("while[") + text.count("scan[") == 0, fn.__name__


@pytest.mark.parametrize("fn", [copy_then_more, copy_of_another_row, copy_beside_column_read])
def test_copies_the_proof_does_not_cover_stay_loops(fn):
    source = _converted(fn)
    assert "mirror=" not in source and "npr_for" in source


def test_uncovered_copies_and_non_square_arrays_match_numpy():
    cases = [(copy_then_more, (np.zeros((4, 4)), RNG.standard_normal(4))),
             (copy_of_another_row, (RNG.standard_normal((4, 4)), RNG.standard_normal(4), 3)),
             (copy_beside_column_read, (RNG.standard_normal((5, 5)),)),
             (row_k, (RNG.standard_normal((3, 3)), RNG.standard_normal(3), 1))]
    for fn, args in cases:
        for w, got in zip(_run(fn, args, None), _run(fn, args, True)):
            np.testing.assert_allclose(got, w, rtol=1e-13)
    wide = (np.zeros((3, 5)), RNG.standard_normal(5), 1)  # the copies leave the rows: NumPy's IndexError
    with pytest.raises(IndexError):
        row_k(*[a.copy() if isinstance(a, np.ndarray) else a for a in wide])
    with pytest.raises(IndexError):
        _run(row_k, wide, True)


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

# (no values whose products are subnormal: XLA flushes those to zero in any translation, docs/semantics.md)
_SPECIAL = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e-100, 2.5])
_VALUES = st.one_of(st.floats(-1e3, 1e3).filter(lambda v: v == 0 or abs(v) > 1e-100), _SPECIAL)
_COMPILED = {}


def _compiled(fn):
    if fn not in _COMPILED:
        _COMPILED[fn] = np2ref.compile(fn)
    return _COMPILED[fn]


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(n=st.integers(1, 4), data=st.data())
def test_mirror_fills_are_numpys_bits_with_signed_zeros_infs_and_nans(n, data):
    """The copies and lanes perform the loop's own operations: NumPy's bits, specials included."""
    S = np.array(data.draw(st.lists(_VALUES, min_size=n * n, max_size=n * n))).reshape(n, n)
    x = np.array(data.draw(st.lists(_VALUES, min_size=n, max_size=n)))
    k = data.draw(st.integers(-n, n - 1))
    for fn, args in ((sym_fill, (S, x)), (row_k, (S, x, k))):
        theirs, ours = [a.copy() if isinstance(a, np.ndarray) else a for a in args], \
            [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        with np.errstate(all="ignore"):
            fn(*theirs)
        _compiled(fn)(*ours)
        if on_tpu():  # float64 there: 48 bits, no -0.0, NaN from a product near 1e308 (docs/tpu.md)
            if np.all(np.abs(S[np.isfinite(S)]) < 1e300) and np.all(np.abs(x[np.isfinite(x)]) < 1e300):
                assert_numpys_bits(ours[0], theirs[0])
        else:
            assert _same_bits(theirs[0], ours[0])


def _same_bits(want, got):
    """Bit for bit (signed zeros too), NaN where NumPy has NaN (its sign and payload unspecified)."""
    nan = np.isnan(want)
    return np.array_equal(nan, np.isnan(got)) and want[~nan].tobytes() == got[~nan].tobytes()
