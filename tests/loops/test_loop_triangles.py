"""Triangular loops at a hand port's cost (issue 39): the outer loop of covariance and correlation,
which writes row i and column i of a symmetric result (rewrite/tri_mirrors.py, npr_vfor's `tri=`),
and trmm's product of two moving slices in lanes (rt/lane_dots.py). Differential runs against
NumPy (results, mutated arguments, dtypes; inf and NaN where the masks leave elements out) and
the loops the proof must keep."""

import inspect

import numpy as np
import pytest

import np2ref
import np2ref.rt.vectorise as V
from conftest import assert_numpys_bits, on_tpu
from test_loop_mirrors import correlation as corr_inner, covariance as cov_inner


def cov_chain(data):
    n, m = data.shape
    d = data - data.mean(axis=0)
    cov = np.zeros((m, m))
    for i in range(m):
        cov[i:m, i] = cov[i, i:m] = d[:, i] @ d[:, i:m] / (n - 1.0)
    return cov


def corr_chain(data):
    n, m = data.shape
    d = (data - data.mean(axis=0)) / data.std(axis=0)
    corr = np.eye(m)
    for i in range(m - 1):
        corr[i, i + 1:m] = corr[i + 1:m, i] = d[:, i] @ d[:, i + 1:m] / n
    return corr


def sym_update(S, x):
    """The caller's S, its row part read and written, then copied: elementwise, NumPy's bits."""
    for i in range(S.shape[0]):
        S[i, i:] = S[i, i:] * 0.5 + x[i] - x[i:]  # (no product to contract into an FMA: XLA:CPU may)
        S[i:, i] = S[i, i:]


def mid_copy(S, x):
    for i in range(S.shape[0]):
        S[i, i:] = x[i:] * 2.0
        S[i:, i] = S[i, i:]
        S[i, i] += 1.0  # after the copy: the column keeps the value before


def reads_column(S, x):
    for i in range(S.shape[0]):
        S[i:, i] = S[i, i:] = x[i:] + S[i + 1:, 0].sum()  # rows below i: other iterations' copies


def lower_rows(S, x):
    for i in range(S.shape[0]):
        S[:i + 1, i] = S[i, :i + 1] = x[:i + 1] * 3.0


def write_after(S, x):
    m = S.shape[0]
    for i in range(m):
        for j in range(i, m):
            S[i, j] = x[i] * x[j]
            S[j, i] = S[i, j]
        S[i, m - 1] = -1.0  # changes a row part after its copy


def row_recurrence(S, x):
    m = S.shape[0]
    for i in range(m):
        for j in range(i, m):
            S[i, j] = S[i, j - 1] + x[j]  # reads the element before: j - 1 may be i - 1
            S[j, i] = S[i, j]


def trmm(alpha, A, B):
    m, n = B.shape
    for i in range(m):
        for j in range(n):
            B[i, j] += A[i + 1:, i] @ B[i + 1:, j]
    B *= alpha  # (NPBench's form: the scaling after the loop)


def trmm_shapes(A, B):
    for i in range(B.shape[0]):
        for j in range(B.shape[1]):  # B's shape in the body: no access to its data
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])


def trmm_flipped(A, B):
    for i in range(B.shape[0]):
        for j in range(B.shape[1]):
            B[i, j] += B[i + 1:, j] @ A[i + 1:, i]


RNG = np.random.default_rng(39)
VECTORISED = [cov_inner, corr_inner, cov_chain, corr_chain, sym_update]
KEPT = [mid_copy, reads_column, lower_rows, write_after, row_recurrence]
_COMPILED, _LOOPED = {}, {}


def _compiled(fn):
    if fn not in _COMPILED:
        _COMPILED[fn] = np2ref.compile(fn)
    return _COMPILED[fn]


def _converted(fn) -> str:
    return np2ref.convert_source("import numpy as np\n\n" + inspect.getsource(fn)).code


def _looped(fn):
    """np2ref.compile(fn) traced with npr_vfor running its loops (its own cache of programs)."""
    if fn not in _LOOPED:
        _LOOPED[fn] = np2ref.compile(fn)
    return _LOOPED[fn]


def _run(fn, args, compiled=True):
    """[the result (if any), then every array argument] after running fn on copies of args."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    run = fn if not compiled else _compiled(fn) if compiled is True else _looped(fn)
    with np.errstate(all="ignore"):
        out = run(*copies)
    return [np.asarray(out)] * (out is not None) + [a for a in copies if isinstance(a, np.ndarray)]


def _same(want, got, exact):
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    assert np.array_equal(nan, np.isnan(got))
    if exact and on_tpu():  # a TPU's float64 is a float32 pair: 48 bits, no -0.0 (docs/tpu.md)
        assert_numpys_bits(got[~nan], want[~nan])
    elif exact:
        assert want[~nan].tobytes() == got[~nan].tobytes()
    else:  # a sum or a product in each lane: XLA's order, which NumPy's `.sum()`/`@` do not promise
        tol = 1e-5 if want.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got[~nan], want[~nan], rtol=tol, atol=tol)


@pytest.mark.parametrize("fn", VECTORISED, ids=lambda f: f.__name__)
def test_row_and_column_loops_are_lanes_and_match_numpy(fn):
    source = _converted(fn)
    assert "tri=((0, " in source and "npr_vfor(npr_range(" in source.split("tri=")[0].splitlines()[-1]
    for shape in ((7, 5), (2, 3)):
        if fn is sym_update:
            args = (RNG.standard_normal((shape[1], shape[1])), RNG.standard_normal(shape[1]))
        else:
            args = (RNG.standard_normal(shape),)
        for want, got in zip(_run(fn, args, compiled=False), _run(fn, args)):
            _same(want, got, exact=fn is sym_update)


@pytest.mark.parametrize("fn", KEPT, ids=lambda f: f.__name__)
def test_row_and_column_loops_the_proof_does_not_cover_stay_loops(fn):
    source = _converted(fn)
    assert "tri=" not in source
    args = (RNG.standard_normal((4, 4)), RNG.standard_normal(4))
    for want, got in zip(_run(fn, args, compiled=False), _run(fn, args)):
        _same(want, got, exact=True)


def rectangular(S, x):
    n = S.shape[0] - 1
    for i in range(n):
        S[i:n, i] = S[i, i:n] = x[i:n] - x[i]


def test_a_rectangular_result_runs_the_loop():
    """R[i:n, i] and R[i, i:n] of a 4 x 5 R (n = 3): the copy after the lanes is for square arrays only
    (npr_vfor runs the loop)."""
    assert "tri=((0, 0, n, 'slice'),)" in _converted(rectangular)
    args = (RNG.standard_normal((4, 5)), RNG.standard_normal(5))
    for w, got in zip(_run(rectangular, args, compiled=False), _run(rectangular, args)):
        _same(w, got, exact=True)


def test_no_loop_is_left_and_the_explanation_says_why():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        text = str(jax.make_jaxpr(_compiled(cov_chain).pure)(RNG.standard_normal((6, 4))))
    assert "while[" not in text and "scan[" not in text
    explained = _compiled(cov_inner).explain()
    assert "`for i`: vectorised: npr_vfor (the iterations are independent; each owns row i of cov" in explained
    kept = np2ref.convert_source("import numpy as np\n\n" + inspect.getsource(write_after))
    verdicts = {var: verdict for *_, var, verdict in kept.loops}
    assert verdicts["i"].startswith("a lax loop: ") and verdicts["j"].startswith("vectorised")


def test_the_row_part_is_stored_where_it_was_read():
    """corr_chain's `d[:, i] @ d[:, i + 1:m]` into `corr[i, i + 1:m]`: in the lanes the product's
    columns start at `i + 1`, where the store's do (the same bound, computed twice from the same
    lane values): stored in place, not rolled to the front and shifted back (a concatenate and a
    pad of the lanes' products, an (m, 3m) buffer: correlation 1.45x its hand port)."""
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        text = str(jax.make_jaxpr(_compiled(corr_chain).pure)(RNG.standard_normal((6, 5))))
    assert "concatenate[" not in text and " pad[" not in text
    args = (RNG.standard_normal((7, 5)),)
    for want, got in zip(_run(corr_chain, args, compiled=False), _run(corr_chain, args)):
        _same(want, got, exact=False)


_SPECIAL = [np.inf, -np.inf, np.nan, 0.0, -0.0]


# a TPU's float64 product meets inf as NaN (its float32 pair splits each operand: inf - inf),
# wherever NumPy's slices leave it out or not (docs/tpu.md): NumPy's NaNs are not a TPU's
ieee_inf = pytest.mark.skipif(on_tpu(), reason="a TPU's float64 product of inf is NaN (docs/tpu.md)")


@ieee_inf
@pytest.mark.parametrize("seed", range(4))
def test_trmm_with_inf_and_nan_in_rows_the_slices_leave_out(seed):
    """B's rows at and above i hold inf and NaN: NumPy's slices B[i + 1:, j] never meet them; the
    one-product form would make 0 * inf = NaN, so the lanes take the two-sided fill there."""
    rng = np.random.default_rng(seed)
    m, n = 5, 3
    A, B = rng.standard_normal((m, m)), rng.standard_normal((m, n))
    for _ in range(3):
        B[rng.integers(m), rng.integers(n)] = _SPECIAL[rng.integers(len(_SPECIAL))]
        A[rng.integers(m), rng.integers(m)] = _SPECIAL[rng.integers(len(_SPECIAL))]
    for fn, args in ((trmm, (1.5, A, B)), (trmm_flipped, (A, B)), (trmm_shapes, (A, B))):
        assert "def _lanes_i(" in _converted(fn)
        want = _run(fn, args, compiled=False)
        for w, got in zip(want, _run(fn, args)):
            _same(w, got, exact=False)
        V.NPR_VECTORISE = False
        try:
            looped = _run(fn, args, compiled="loop")
        finally:
            V.NPR_VECTORISE = True
        for w, got in zip(want, looped):
            _same(w, got, exact=False)


def row_products(S, x, B):
    for i in range(S.shape[0]):
        S[i, i:] = x @ B[:, i:]  # B's columns before i never enter NumPy's product


@ieee_inf
def test_products_of_slices_with_inf_and_nan_outside_them():
    """The contracted axis is zero-filled outside a slice, the others are not (the product's
    elements outside them are not NumPy's): inf and NaN in B's columns before i stay out."""
    rng = np.random.default_rng(5)
    S, x, B = rng.standard_normal((4, 4)), rng.standard_normal(3), rng.standard_normal((3, 4))
    B[1, 0], B[2, 1], B[0, 2] = np.inf, np.nan, -np.inf
    want = _run(row_products, (S, x, B), compiled=False)
    for w, got in zip(want, _run(row_products, (S, x, B))):
        _same(w, got, exact=False)
    V.NPR_VECTORISE = False
    try:
        looped = _run(row_products, (S, x, B), compiled="loop")
    finally:
        V.NPR_VECTORISE = True
    for w, got in zip(want, looped):
        _same(w, got, exact=False)


def test_trmm_on_integers_and_in_one_product():
    jax = pytest.importorskip("jax")
    A, B = RNG.integers(-5, 5, (6, 6)).astype(np.int32), RNG.integers(-5, 5, (6, 4)).astype(np.int64)
    for w, got in zip(_run(trmm, (2, A, B), compiled=False), _run(trmm, (2, A, B))):
        assert got.dtype == w.dtype and np.array_equal(got, w)
    with jax.enable_x64(True), jax.default_device(jax.devices("cpu")[0]):  # XLA:CPU's program, on a TPU too
        fn = jax.jit(_compiled(trmm).pure)
        hlo = fn.lower(1.5, RNG.standard_normal((6, 6)), RNG.standard_normal((6, 4))).compile().as_text()
    assert "conditional(" in hlo and "while" not in hlo


def test_trmm_gradient_through_the_one_product():
    jax = pytest.importorskip("jax")
    A, B = RNG.standard_normal((4, 4)), RNG.standard_normal((4, 3))

    def loss(b):
        return _compiled(trmm).pure(1.5, A, b)[1]["B"].sum()
    with jax.enable_x64(True):
        got = np.asarray(jax.jit(jax.grad(loss))(B))
    eps, want = 1e-6, np.zeros_like(B)
    for k in np.ndindex(B.shape):
        hi, lo = B.copy(), B.copy()
        hi[k] += eps
        lo[k] -= eps
        want[k] = (_run(trmm, (1.5, A, hi), compiled=False)[1].sum() - _run(trmm, (1.5, A, lo), compiled=False)[1].sum()) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_VALUES = st.one_of(st.floats(-1e3, 1e3).filter(lambda v: v == 0 or abs(v) > 1e-100), st.sampled_from(_SPECIAL))


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_row_and_column_fills_are_numpys_bits_with_signed_zeros_infs_and_nans(data):
    """The lanes and the copy perform the loop's own elementwise operations: NumPy's bits."""
    S = np.array(data.draw(st.lists(_VALUES, min_size=16, max_size=16))).reshape(4, 4)
    x = np.array(data.draw(st.lists(_VALUES, min_size=4, max_size=4)))
    for w, got in zip(_run(sym_update, (S, x), compiled=False), _run(sym_update, (S, x))):
        _same(w, got, exact=True)


def stale_inner_variable(S, x):
    m = S.shape[0]
    for i in range(m):
        for j in range(0, i):
            S[i, i] += x[j]
        for j in range(i, i):
            S[i, i] += 1.0  # (no trips: j keeps i - 1)
        S[i, j] = 5.0  # a column below i, which iteration j's copy wrote before
        for j in range(i, m):
            S[i, j] = x[j]
            S[j, i] = S[i, j]


def test_an_inner_variable_after_its_loop_is_not_taken_as_its_range():
    """The outer loop carries j (read before the body binds it); were it not, upper_rows would
    still not take `S[i, j]` after j's loops for a column >= i (it looks at enclosing loops only)."""
    source = _converted(stale_inner_variable)
    assert "tri=" not in source and "npr_for(npr_range(m), _loop_i" in source


def test_trmm_and_covariance_under_the_callers_vmap():
    """One inf in one example of a batch: the flag spans the caller's batch too (both forms exact)."""
    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(8)
    A, Bs, ds = rng.standard_normal((4, 4)), rng.standard_normal((3, 4, 2)), rng.standard_normal((3, 5, 3))
    Bs[1, 0, 0] = np.inf
    with jax.enable_x64(True):
        outs = jax.jit(jax.vmap(lambda b: _compiled(trmm).pure(1.5, A, b)[1]["B"]))(Bs)
        covs = jax.jit(jax.vmap(lambda d: _compiled(cov_chain).pure(d)[0]))(ds)
    for k in range(3):
        _same(_run(trmm, (1.5, A, Bs[k]), compiled=False)[1], np.asarray(outs[k]), exact=False)
        _same(cov_chain(ds[k]), np.asarray(covs[k]), exact=False)
