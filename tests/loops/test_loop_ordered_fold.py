"""The ordered fold (rewrite/ordered_fold.py, rt/fold.py; issue 39): a loop that only adds into one
`R[P]` runs as every trip's reads made at once and one chain of additions in NumPy's order. Every
result is NumPy's bit for bit (bitwise=True here: the loops the fold falls back to contract FMAs
otherwise, docs/semantics.md), signed zeros, infinities and NaNs included; the loops the fold
refuses stay loops and say why. The fold runs outside lanes too in these tests (on a CPU it does
only inside them by default: _npr_FOLD)."""

import jax
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import np2ref
import np2ref.rt.fold as F
from conftest import assert_numpys_bits, on_tpu
from test_loop_sum_reorder import syr2k, syrk  # (NPBench's kernels, as written there)


def gemv_minus(y, A, x, b):  # a name the body binds, `-=`, the whole of y
    for k in range(A.shape[1]):
        t = x[k] * 2.0
        y[:] -= A[:, k] * t - b[k]


def element(s, a):  # one element, the loop variable as a value
    for k in range(a.shape[0]):
        s[1] += a[k] * a[k] - k


def window(out, x, w):  # a window that moves with k, read; the store's window does not move
    for k in range(x.shape[0] - 2):
        out[1:4] += x[k:k + 3] * w[k]


def suffix_rows(C, A):  # the lanes' window starts at i: `C[i, i:]`, read from the whole row
    for i in range(A.shape[0]):
        for k in range(A.shape[1]):
            C[i, i:] -= A[i, k] * A[i:, k]


def _r(shape, dtype=np.float64, seed=0):
    x = np.random.default_rng(seed).standard_normal(shape)
    return (x + 1j * np.random.default_rng(seed + 1).standard_normal(shape)).astype(dtype) if \
        np.dtype(dtype).kind == "c" else x.astype(dtype)


FOLDED = {  # name: (function, arguments)
    "syrk": (syrk, lambda d: (1.5, 1.2, _r((7, 7), d), _r((7, 12), d, 1))),
    "syrk_passes": (syrk, lambda d: (1.5, 1.2, _r((5, 5), d), _r((5, 37), d, 2))),  # 37 trips: passes of 16
    "syr2k": (syr2k, lambda d: (1.5, 1.2, _r((6, 6), d), _r((6, 20), d, 3), _r((6, 20), d, 4))),
    "gemv_minus": (gemv_minus, lambda d: (_r(9, d), _r((9, 11), d, 5), _r(11, d, 6), _r(11, d, 7))),
    "element": (element, lambda d: (_r(3, d), _r(25, d, 8))),
    "window": (window, lambda d: (_r(6, d), _r(14, d, 9), _r(14, d, 10))),
    "suffix_rows": (suffix_rows, lambda d: (_r((6, 6), d), _r((6, 9), d, 11))),
}
_COMPILED = {}


@pytest.fixture(autouse=True)
def _fold_everywhere(monkeypatch):
    monkeypatch.setitem(F._npr_FOLD, "outside lanes", True)


def _compiled(fn, **options):
    key = (fn.__name__, tuple(sorted(options.items())))
    if key not in _COMPILED:
        _COMPILED[key] = np2ref.compile(fn, host_below=0, bitwise=True, **options)
    return _COMPILED[key]


def _own_text(compiled) -> str:
    text = compiled.source
    own = text[text.index(f"def {compiled.__name__}("):]
    nxt = own.find("\ndef ", 1)
    return own if nxt < 0 else own[:nxt]


def _run(fn, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    fn(*args)
    return args


def assert_same_bits(got, want):
    """NumPy's values bit for bit: assert_numpys_bits, and the sign of every zero."""
    assert_numpys_bits(got, want)
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype.kind in "fc" and not (on_tpu() and want.dtype.itemsize == 8):  # (a TPU's float64: no -0.0)
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            assert np.array_equal(np.signbit(g) & (w == 0), np.signbit(w) & (w == 0))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(FOLDED))
def test_the_fold_is_numpys_bits(name, dtype):
    fn, make = FOLDED[name]
    compiled = _compiled(fn)
    assert "npr_fold_for(" in _own_text(compiled)
    args = make(dtype)
    for got, want in zip(_run(compiled, args), _run(fn, args)):
        if isinstance(want, np.ndarray):
            assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", [np.float64, pytest.param(np.complex128, marks=pytest.mark.skipif(
    on_tpu(), reason="a TPU has no complex128 (NPR302)"))])
@pytest.mark.parametrize("name", ["syrk", "gemv_minus", "window"])
def test_the_fold_and_the_loop_agree_bit_for_bit(name, dtype, monkeypatch):
    """npr_fold_for's fallback is the loop (NPR_FOLD off): the same bits either way. A complex
    sum runs the loop (XLA contracts the real products of a complex product below the fences)."""
    fn, make = FOLDED[name]
    args = make(dtype)
    folded = _run(_compiled(fn), args)
    monkeypatch.setattr(F, "NPR_FOLD", False)
    looped = _run(np2ref.compile(fn, host_below=0, bitwise=True), args)
    for a, b in zip(folded, looped):
        if isinstance(a, np.ndarray):
            assert_same_bits(a, b)


def test_outside_lanes_a_cpu_runs_the_loop(monkeypatch):
    """By default a CPU folds only inside a lanes body (syrk's k loop), where a loop's trip is a
    masked update of every row; gemv_minus's loop over a vector stays a loop there."""
    monkeypatch.setitem(F._npr_FOLD, "outside lanes", None)
    made = []
    monkeypatch.setattr(F, "_npr_stacked_reads", lambda *a, _f=F._npr_stacked_reads: made.append(1) or _f(*a))
    folds = {"gemv_minus": 0, "syrk": 1} if jax.default_backend() != "tpu" else {"gemv_minus": 1, "syrk": 2}
    for name in ("gemv_minus", "syrk"):
        fn, make = FOLDED[name]
        with jax.enable_x64(True):
            jax.make_jaxpr(np2ref.compile(fn, host_below=0).pure)(*make(np.float64))
        assert len(made) == folds[name], (name, made)


def test_no_loop_is_left_for_a_short_range():
    """12 trips of syrk's k loop: one unrolled pass, no while loop in XLA's program (the lax loop
    made 12 trips of a masked update). On a TPU the fold is float32's only (rt/fold.py)."""
    fn, make = FOLDED["syrk"]
    with jax.enable_x64(True):
        args = [jax.device_put(a) for a in make(np.float32 if on_tpu() else np.float64)]
        hlo = jax.jit(np2ref.compile(fn, host_below=0).pure).lower(*args).compile().as_text()
    assert "while" not in hlo


# (no subnormal operand or product: XLA:CPU flushes them to zero in every mode, docs/semantics.md)
# (a TPU's float64 has float32's exponent range, docs/tpu.md: products of three stay inside it there)
_BIG, _WIDE = (1e12, 1e4) if on_tpu() else (1e308, 1e50)
_SPECIAL = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, _BIG, -_BIG, 0.1])
_VALUES = st.one_of(_SPECIAL, st.builds(lambda x, s: s * x, st.floats(1 / _WIDE, _WIDE), st.sampled_from([1.0, -1.0])))


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([1, 3]), m=st.sampled_from([1, 5, 20]), data=st.data())
def test_signed_zeros_infinities_and_nans_are_numpys(n, m, data):
    """Zeros of both signs, infinities, NaNs, overflow: the fold adds what NumPy adds, nothing
    outside the masked window (no +0.0 added to a -0.0), in NumPy's order."""
    C = np.array(data.draw(st.lists(_VALUES, min_size=n * n, max_size=n * n))).reshape(n, n)
    A = np.array(data.draw(st.lists(_VALUES, min_size=n * m, max_size=n * m))).reshape(n, m)
    alpha, beta = data.draw(_SPECIAL), data.draw(_SPECIAL)
    with np.errstate(all="ignore"):
        want = _run(syrk, (alpha, beta, C, A))[2]
    assert_same_bits(_run(_compiled(syrk), (alpha, beta, C, A))[2], want)


def data_range(s, a, n):
    for k in range(n[0]):
        s[0] += a[k]


def wider_value(s, a):  # float32 += float64: NumPy adds in float64 and rounds each trip
    for k in range(a.shape[0]):
        s[0] += a[k] * 3.0


def int_sum(s, a):
    for k in range(a.shape[0]):
        s[0] += a[k] * 3


def moving_masked(s, x):  # x[k:] moves with k: its length does (the loop runs; max: no sum's order)
    for k in range(x.shape[0]):
        s[0] += x[k:].max()


@pytest.mark.parametrize("fn,args", [
    (data_range, lambda: (np.zeros(1), _r(9), np.array([7]))),
    (wider_value, lambda: (np.zeros(2, np.float32), _r(40))),
    (int_sum, lambda: (np.zeros(2, np.int64), np.arange(30))),
    (moving_masked, lambda: (np.zeros(1), _r(11))),
])
def test_where_the_fold_cannot_run_the_loop_does(fn, args):
    """Folded in the source; npr_fold_for runs the loop when traced: a trip count read from data,
    a value whose addition NumPy makes in a wider dtype, an integer sum, a read whose masked length
    moves with k. NumPy's bits."""
    compiled = _compiled(fn)
    assert "npr_fold_for(" in _own_text(compiled)
    a = args()
    for got, want in zip(_run(compiled, a), _run(fn, a)):
        if isinstance(want, np.ndarray):
            assert_same_bits(got, want)


def past_the_end(s, a):
    for k in range(a.shape[0]):
        s[0] += a[k + 2]


def test_a_read_past_the_end_raises_numpys_index_error():
    """A read whose check the range does not decide: the fold's vmapped reads cannot record it,
    the loop runs and raises NumPy's IndexError at NumPy's trip."""
    with pytest.raises(IndexError) as want:
        past_the_end(np.zeros(1), np.arange(5.0))
    with pytest.raises(IndexError) as got:
        _compiled(past_the_end)(np.zeros(1), np.arange(5.0))
    assert str(got.value) == str(want.value)


def two_sums(s, q, a):
    for k in range(a.shape[0]):
        s[0] += a[k]
        q[0] += a[k] * 2.0


def reads_its_sum(s, a):
    for k in range(a.shape[0]):
        s[0] += a[k] * s[1]


def local_index(s, a):
    for k in range(a.shape[0] - 1):
        t = k + 1
        s[0] += a[t]


@pytest.mark.parametrize("fn,why", [
    (two_sums, "not an ordered fold: more than one `R[index] += value`"),
    (reads_its_sum, "not an ordered fold: a value reads an array the loop adds into"),
    (local_index, "not an ordered fold: a read indexed by a name the body binds"),
])
def test_refused_folds_stay_loops_and_say_why(fn, why):
    compiled = _compiled(fn)
    assert "npr_fold_for(" not in _own_text(compiled)
    lines = [line for line in compiled.explain().splitlines() if "`for k`" in line]
    assert len(lines) == 1 and "a lax loop" in lines[0] and why in lines[0], lines
    a = (_r(3), _r(8, seed=3)) if fn is not two_sums else (_r(1), _r(1, seed=1), _r(8, seed=2))
    for got, want in zip(_run(compiled, a), _run(fn, a)):
        if isinstance(want, np.ndarray):
            assert_same_bits(got, want)


def test_explain_says_the_loop_became_an_ordered_fold():
    lines = [line for line in _compiled(syrk).explain().splitlines() if "`for k`" in line]
    assert len(lines) == 1 and "`for k`: an ordered fold: npr_fold_for, the += into C" in lines[0]


def test_the_fold_is_differentiable():
    """jax.grad through the fold's scan and vmapped reads: the loop's gradient."""
    fn, make = FOLDED["gemv_minus"]
    y, A, x, b = make(np.float64)

    def loss(pure, A):
        return pure(y, A, x, b)[1]["y"].sum()
    with jax.enable_x64(True):
        got = jax.grad(lambda A: loss(np2ref.compile(fn, host_below=0).pure, A))(A)
        F.NPR_FOLD = False
        try:
            want = jax.grad(lambda A: loss(np2ref.compile(fn, host_below=0).pure, A))(A)
        finally:
            F.NPR_FOLD = True
    np.testing.assert_allclose(got, want, rtol=1e-13)
