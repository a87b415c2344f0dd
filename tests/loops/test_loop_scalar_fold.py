"""Scalar accumulators as ordered folds (rewrite/scalar_fold.py, rt/fold.py's npr_fold_scalar;
issues 38 and 39): a loop whose only carried value is one accumulator computes every trip's value
at once, then the loop's own steps in NumPy's order. NumPy's bits in both modes (bitwise=True and
the default), signed zeros, infinities and NaNs included, and the loop's bits where XLA:CPU
flushes subnormals (the loop flushes them alike: docs/semantics.md). The loops the fold refuses
stay loops and say why. The fold runs outside lanes in these tests (on a CPU it does only inside
them by default: _npr_FOLD)."""

import jax
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import np2ref
import np2ref.rt.fold as F
from conftest import on_tpu
from test_loop_ordered_fold import assert_same_bits


def diag_tanh(a):  # benchmarks/suite.py's diagonal loop
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return trace


def dot(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        s += a[k] * b[k]
    return s


def minus_dot(w, x, s0):  # a start given by the caller, `-=`
    s = float(s0)
    for k in range(w.shape[0]):
        s -= w[k] * x[k]
    return s


def plus_exp(x):  # `s = s + f(...)`, a range with a start
    s = 0
    for k in range(1, x.shape[0]):
        s = s + np.exp(x[k] - x[k - 1])
    return s


def value_first(x):  # `s = v + s`, a name bound in the body
    s = -0.0
    for k in range(x.shape[0]):
        t = x[k] * 0.5
        s = (t - 1.0) ** 2 + s
    return s


def product(r):
    p = 1.0
    for k in range(r.shape[0]):
        p *= (1 + r[k])
    return p


def peak(x):  # np.maximum: NaN propagates, as NumPy's
    m = -np.inf
    for k in range(x.shape[0]):
        m = np.maximum(m, x[k])
    return m


def fpeak(x):  # np.fmin, the accumulator second; the loop variable as a value
    m = np.inf
    for k in range(x.shape[0]):
        m = np.fmin(x[k] * k, m)
    return m


def descending(x):
    s = 0.0
    for k in range(x.shape[0] - 1, -1, -2):
        s += x[k] * x[k]
    return s


def _r(n, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(n).astype(dtype)


FOLDED = {  # name: (function, arguments from a dtype)
    "diag_tanh": (diag_tanh, lambda d: (np.random.default_rng(1).standard_normal((37, 37)).astype(d),)),
    "dot": (dot, lambda d: (_r(41, d), _r(41, d, 2))),
    "minus_dot": (minus_dot, lambda d: (_r(23, d), _r(23, d, 3), 1.5)),
    "plus_exp": (plus_exp, lambda d: (_r(30, d, 4),)),
    "value_first": (value_first, lambda d: (_r(19, d, 5),)),
    "product": (product, lambda d: (0.1 * _r(50, d, 6),)),
    "peak": (peak, lambda d: (_r(29, d, 8),)),
    "fpeak": (fpeak, lambda d: (_r(29, d, 9),)),
    "descending": (descending, lambda d: (_r(26, d, 10),)),
}
_COMPILED = {}


@pytest.fixture(autouse=True)
def _fold_everywhere(monkeypatch):  # (on a CPU it folds only inside lanes by default: _npr_FOLD)
    monkeypatch.setitem(F._npr_FOLD, "scalar", True)


def _compiled(fn, bitwise=True):
    key = (fn.__name__, bitwise)
    if key not in _COMPILED:
        _COMPILED[key] = np2ref.compile(fn, host_below=0, bitwise=bitwise)
    return _COMPILED[key]


@pytest.fixture
def folds(monkeypatch):
    """The number of chains npr_fold_scalar made (a fallback to the loop makes none)."""
    made = []
    monkeypatch.setattr(F, "npr_fold_scalar", lambda *a, _f=F.npr_fold_scalar: (_f(*a), made.append(1))[0])
    return made


def _same(got, want):
    assert type(got) is type(want), (type(got), type(want))
    assert_same_bits(got, want)


TRANSCENDENTAL = {"diag_tanh", "plus_exp"}  # XLA's tanh and exp are not libm's (1 ulp): the loop's bits


@pytest.mark.parametrize("bitwise", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(FOLDED))
def test_the_fold_is_numpys_bits(name, dtype, bitwise, monkeypatch):
    """NumPy's bits; where the values are XLA's tanh or exp, the loop's bits (and NumPy's to an
    ulp a trip)."""
    fn, make = FOLDED[name]
    compiled = _compiled(fn, bitwise)
    assert ": an ordered fold" in compiled.explain()
    args = make(dtype)
    with np.errstate(all="ignore"):
        want = fn(*args)
    got = compiled(*args)
    if name not in TRANSCENDENTAL:
        return _same(got, want)
    if on_tpu() and dtype == np.float32:  # (a TPU's float32 tanh of an array: thousands of ulps, docs/tpu.md)
        return np.testing.assert_allclose(got, want, rtol=1e-4)
    np.testing.assert_allclose(got, want, rtol=64 * np.finfo(dtype).eps)
    monkeypatch.setattr(F, "NPR_FOLD", False)
    _same(got, np2ref.compile(fn, host_below=0, bitwise=bitwise)(*args))


@pytest.mark.parametrize("name", sorted(FOLDED))
def test_the_chain_runs_no_loop_trip_per_value(name, folds):
    """The fold ran (no fallback), and XLA's program has at most len / 16 trips' loop: the values
    are one vector operation."""
    fn, make = FOLDED[name]
    with jax.enable_x64(True):
        text = str(jax.make_jaxpr(_compiled(fn).pure)(*make(np.float64)))
    assert folds and "scan" in text and "while" not in text


@pytest.mark.parametrize("name", ["dot", "diag_tanh", "product", "peak"])
def test_the_fold_and_the_loop_agree_bit_for_bit(name, monkeypatch):
    fn, make = FOLDED[name]
    args = make(np.float64)
    folded = _compiled(fn)(*args)
    monkeypatch.setattr(F, "NPR_FOLD", False)
    _same(np2ref.compile(fn, host_below=0, bitwise=True)(*args), folded)


# (subnormals: XLA:CPU flushes them in the loop and in the fold alike; compared with the loop)
# (a TPU's float64 has float32's exponent range, docs/tpu.md: 1e308 is inf there, products of two stay inside)
_BIG, _WIDE = (1e18, 1e9) if on_tpu() else (1e308, 1e30)
_SPECIAL = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, _BIG, -_BIG, 0.1, 3.0])
_VALUES = st.one_of(_SPECIAL, st.builds(lambda x, s: s * x, st.floats(1 / _WIDE, _WIDE), st.sampled_from([1.0, -1.0])))
_TINY = st.sampled_from([5e-324, -5e-324, 1e-310, -2.2e-308])


def plus_zero(x):
    s = 0.0
    for k in range(x.shape[0]):
        s += x[k] * 2.0
    return s


def plus_negative_zero(x):
    s = -0.0
    for k in range(x.shape[0]):
        s = s + x[k]
    return s


def plus_int_zero(x):
    s = 0
    for k in range(x.shape[0]):
        s += x[k]
    return s


def minus_zero(x):
    s = 0.0
    for k in range(x.shape[0]):
        s -= x[k]
    return s


def times_one(x):
    s = 1.0
    for k in range(x.shape[0]):
        s *= x[k]
    return s


def plus_given(x, start=-0.0):
    s = float(start)
    for k in range(x.shape[0]):
        s = x[k] + s
    return s


_STARTS = {f.__name__: f for f in (plus_zero, plus_negative_zero, plus_int_zero, minus_zero, times_one, plus_given)}


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(sorted(_STARTS)), n=st.integers(1, 20), dtype=st.sampled_from([np.float64, np.float32]),
       bitwise=st.booleans(), data=st.data())
def test_zeros_infinities_nans_and_starts_are_numpys(name, n, dtype, bitwise, data):
    """Zeros of both signs (NumPy's 0.0 + -0.0 is 0.0: the literal start's addition fenced),
    infinities, NaNs, overflow; starts 0.0, -0.0, 0, 1.0 and one a caller gives (a float32 sum
    from a Python float start stays float32, NEP 50)."""
    fn = _STARTS[name]
    with np.errstate(over="ignore"):
        x = np.array(data.draw(st.lists(_VALUES, min_size=n, max_size=n))).astype(dtype)
    args = (x, data.draw(st.sampled_from([0.0, -0.0, 1.0, -2.5]))) if fn is plus_given else (x,)
    with np.errstate(all="ignore"):
        want = fn(*args)
        got = _compiled(fn, bitwise)(*args)
    _same(got, want)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(_STARTS)), data=st.data())
def test_subnormals_as_numpy_or_the_loop_makes_them(name, data):
    """XLA:CPU flushes subnormals, in the loop's body and in the chain's pass; not in the first
    step the fold makes on its own (`-0.0 + 5e-324` is NumPy's 5e-324 there, the loop's 0.0)."""
    if on_tpu():
        pytest.skip("a TPU's float64 is a float32 pair: no subnormals (docs/tpu.md)")
    fn = _STARTS[name]
    x = np.array(data.draw(st.lists(st.one_of(_TINY, _VALUES), min_size=1, max_size=12)))
    args = (x, 0.0) if fn is plus_given else (x,)
    with np.errstate(all="ignore"):
        want, folded = fn(*args), _compiled(fn)(*args)
        F.NPR_FOLD = False
        try:
            looped = np2ref.compile(fn, host_below=0, bitwise=True)(*args)
        finally:
            F.NPR_FOLD = True
    assert type(folded) is type(want)
    assert np.asarray(folded).tobytes() in (np.asarray(want).tobytes(), np.asarray(looped).tobytes())


def no_trips(x):
    s = 0.0
    for k in range(x.shape[0] - 5):
        s += x[k]
    return s


def data_trips(x, n):
    s = 0.0
    for k in range(n[0]):
        s += x[k] * x[k]
    return s


def test_no_trips_leave_the_start_and_a_data_range_runs_the_loop(folds):
    """Zero trips: the start as it was (a Python float); a trip count read from data: the loop."""
    x = _r(4)
    _same(_compiled(no_trips)(x), no_trips(x))
    assert not folds
    _same(_compiled(data_trips)(_r(9), np.array([7])), data_trips(_r(9), np.array([7])))
    assert not folds


def reads_itself(x):
    s = 1.0
    for k in range(x.shape[0]):
        s += s * x[k]
    return s


def stores(x, out):
    s = 0.0
    for k in range(x.shape[0]):
        s += x[k]
        out[k] = s
    return s


def twice(x):
    s = 0.0
    for k in range(x.shape[0]):
        s += x[k]
        s *= 0.5
    return s


def two_steps(x, y):
    s = 0.0
    for k in range(x.shape[0]):
        s = s + x[k] - y[k]
    return s


def quotient(x):  # (s / a) / b is s / (a * b) to XLA's simplifier in the chain's unrolled pass
    q = 1.0
    for k in range(x.shape[0]):
        q = q / (x[k] + 2.0)
    return q


def in_place(x, s):  # s may be the caller's 0-d array: `+=` writes it
    for k in range(x.shape[0]):
        s += x[k]
    return s


def python_max(x):
    s = 0.0
    for k in range(x.shape[0]):
        s = max(s, x[k])
    return s


def branch(x):
    s = 0.0
    for k in range(x.shape[0]):
        s += x[k] if x[k] > 0 else 0.0
    return s


@pytest.mark.parametrize("fn,why", [
    (reads_itself, "a value that reads `s`"),
    (stores, "a statement other than"),
    (twice, "`s` accumulated twice"),
    (two_steps, "`s` bound other than by one step"),
    (python_max, "`s` bound other than by one step"),
    (in_place, "`s` may hold an array"),
    (quotient, "`q` bound other than by one step"),
    (branch, "a value with a branch"),
])
def test_refused_loops_stay_loops_and_say_why(fn, why):
    compiled = _compiled(fn)
    assert ": an ordered fold" not in compiled.explain() and why in compiled.explain()
    x = _r(12)
    args = (x, np.zeros(12)) if fn is stores else (x, _r(12, seed=3)) if fn is two_steps else \
        (x, np.zeros(())) if fn is in_place else (x,)
    want_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    _same(compiled(*args), fn(*want_args))


def test_explain_names_the_fold():
    assert "an ordered fold: npr_fold_for, every trip's value of trace" in _compiled(diag_tanh).explain()


def test_a_long_chain_runs_in_passes():
    """4000 trips: the chain's scan in passes (no compile that grows with the trips), NumPy's bits."""
    x = _r(4000, seed=11)
    with jax.enable_x64(True):
        hlo = jax.jit(_compiled(dot).pure).lower(x, x).compile().as_text()
    assert "while" in hlo
    _same(_compiled(dot)(x, x), dot(x, x))


def test_a_cpu_runs_the_loop_outside_lanes_by_default(monkeypatch, folds):
    """On a CPU a loop's trip over a scalar costs what the chain costs per trip (docs/loops.md):
    outside lanes the loop runs there by default; on a TPU the fold."""
    monkeypatch.setitem(F._npr_FOLD, "scalar", None)
    x = _r(30)
    _same(np2ref.compile(dot, host_below=0, bitwise=True)(x, x), dot(x, x))
    assert len(folds) == (jax.default_backend() == "tpu")


def gemv_rows(A, x, y):  # the fold inside lanes: the default on every backend
    for i in range(A.shape[0]):
        s = 0.0
        for j in range(A.shape[1]):
            s += A[i, j] * x[j]
        y[i] = s


@pytest.mark.parametrize("bitwise", [True, False])
def test_inside_lanes_the_fold_is_the_default_and_numpys_bits(bitwise, monkeypatch, folds):
    """In the lanes over i, the default mode's loop contracted `s + A[i, j] * x[j]` (2.1e-14 from
    NumPy): the fold's chain is NumPy's bits."""
    monkeypatch.setitem(F._npr_FOLD, "scalar", None)
    A, x = np.random.default_rng(12).standard_normal((20, 30)), _r(30, seed=13)
    want, got = np.zeros(20), np.zeros(20)
    gemv_rows(A, x, want)
    np2ref.compile(gemv_rows, host_below=0, bitwise=bitwise)(A, x, got)
    assert folds
    assert_same_bits(got, want)  # (NumPy's bits; a TPU's float64 pair to 1e-13)


def complex_dot(a, b):
    s = 0j
    for k in range(a.shape[0]):
        s += a[k] * b[k]
    return s


@pytest.mark.skipif(on_tpu(), reason="a TPU has no complex128 (NPR302)")
def test_a_complex_chain_runs_the_loop(folds):
    a = _r(9) + 1j * _r(9, seed=14)
    _same(_compiled(complex_dot)(a, a), complex_dot(a, a))
    assert not folds


def test_grad_through_the_fold():
    """jax.grad of `.pure` through the fold's values and chain (its reads gathers there)."""
    x = _r(12, seed=15)
    with jax.enable_x64(True):
        g = jax.grad(lambda a: _compiled(dot).pure(a, a)[0])(x)
    np.testing.assert_allclose(g, 2 * x, rtol=1e-13 if on_tpu() else 1e-15)  # (a TPU's float64 pair: 48 bits)
