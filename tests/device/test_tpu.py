"""Exactness on a TPU (issue 38, docs/tpu.md), pinned on the CPU CI by the mechanisms:

- accurate64.py's float64 formulations are NumPy's to a few ulps in IEEE float64;
- its rewrite of the jitted call's program gives NumPy's answer where the backend's own float64
  transcendentals have float32's precision (simulated here: each such primitive evaluated in
  float32, as a TPU's lost iir_filter's digits), and puts matrix products at HIGHEST;
- `%` on floats reads no sign bit through an int64 bitcast and shift (the TPU compiler's
  `shift-right-arithmetic with different element types`);
- a float64 operation without a formulation is refused (NPR302), never run at float32's
  precision.

On a TPU (`bash benchmarks/tpu_lane.sh`) the last tests run the corpus programs that lost
digits or crashed there, in both dtype policies.
"""

import copy

import jax
import numpy as np
import pytest
from jax import lax

import np2ref
from conftest import ROOT, assert_same_as_numpy, load_module
from np2ref.rt import accurate64, float64_math, host_words
from np2ref.rt.compat_jaxpr import _npr_core
from np2ref.rt.pyscalars import _npr_float_divmod
from np2ref.verify.compare import worst_error

RNG = np.random.default_rng(38)
X = RNG.uniform(-3, 3, 2000)
P = RNG.uniform(1e-3, 50, 2000)
U = RNG.uniform(-0.999, 0.999, 2000)
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-20, -1e-20, 0.5, -0.5, 30.0, -30.0])
CASES = [("exp", X, np.exp), ("expm1", X, np.expm1), ("log", P, np.log), ("log1p", U, np.log1p),
         ("sin", X * 1000, np.sin), ("cos", X, np.cos), ("tan", X, np.tan), ("tanh", X, np.tanh),
         ("sinh", X, np.sinh), ("cosh", X, np.cosh), ("sqrt", P, np.sqrt), ("exp2", X, np.exp2),
         ("atan", X * 10, np.arctan), ("asin", U, np.arcsin), ("acos", U, np.arccos), ("cbrt", X, np.cbrt),
         ("asinh", X, np.arcsinh), ("atanh", U, np.arctanh), ("acosh", P + 1, np.arccosh)]
TPU = jax.default_backend() == "tpu"
# the mechanism tests assert IEEE float64 (the CPU's); a TPU's float64 is a float32 pair
ieee = pytest.mark.skipif(TPU, reason="asserts IEEE float64; on a TPU the corpus tests below run")


def _ulps(expected, got):
    e, g = np.asarray(expected), np.asarray(got)
    assert np.array_equal(np.isnan(e), np.isnan(g)), "NaN where NumPy has none (or the reverse)"
    finite = np.isfinite(e)
    assert np.array_equal(e[~finite & ~np.isnan(e)], g[~finite & ~np.isnan(e)])
    return float((np.abs(g[finite] - e[finite]) / np.spacing(np.abs(e[finite]))).max())


def _bind(name):
    return getattr(lax, name)  # lax.sin, lax.exp2, ...: the primitive with its default parameters


@ieee
@pytest.mark.parametrize("name, arg, ref", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_formulation_is_numpys_to_a_few_ulps(name, arg, ref):
    with jax.enable_x64(True), np.errstate(all="ignore"):
        fn = jax.jit(lambda t: accurate64._NPR_A64_UNARY[name](t, _bind(name)))
        assert _ulps(ref(arg), fn(arg)) <= 4
        assert _ulps(ref(SPECIAL), fn(SPECIAL)) <= 16  # exp2(30): 30 * ln2 rounded once


@ieee
def test_binary_formulations():
    with jax.enable_x64(True):
        pw = jax.jit(lambda a, b: float64_math._npr_a64_pow64(a, b, lax.pow))
        assert _ulps(P ** X, pw(P, X)) <= 32  # exp(y * log x): y * log x rounded once
        at = jax.jit(lambda a, b: float64_math._npr_a64_atan2_64(a, b, lax.atan2))
        assert _ulps(np.arctan2(X, U), at(X, U)) <= 4
        assert _ulps(np.arctan2(SPECIAL, SPECIAL[::-1]), at(SPECIAL, SPECIAL[::-1])) == 0


ROUNDINGS = {"round": np.rint, "floor": np.floor, "ceil": np.ceil}
_K = np.concatenate([np.arange(-6.0, 7.0), RNG.integers(-10**6, 10**6, 40).astype(float), [2.0**52 - 1, 2.0**53, -2.0**52]])
EDGES = np.concatenate([(_K[:, None] + np.array([0.0, 0.5, -0.5, 0.25, -0.25, 0.5 - 2**-30, 0.5 + 2**-30, 1e-9, -1e-9])).ravel(),
                        SPECIAL, [-0.3, 0.3, -0.7, 0.7, -0.5, -1.5, 1.5, 2.5, -2.5], X * 1e5])


@ieee
@pytest.mark.parametrize("skew", [-1.0, 0.0, 1.0])
@pytest.mark.parametrize("name", sorted(ROUNDINGS))
def test_roundings_made_numpys_from_a_backend_an_integer_off(name, skew):
    """A TPU rounds (rint, floor, ceil) the float32 pair's leading part: np.round(x, 3) came back
    0.001 off for 8 of 320 values (-855.4699999999975 for -855.469). The formulations take the
    backend's answer and move it to NumPy's, bit for bit (ties to even, -0.0 kept), from any answer
    an integer off; here the backend's is NumPy's plus `skew`."""
    exact = {"round": lambda v: lax.round(v, lax.RoundingMethod.TO_NEAREST_EVEN)}.get(name, _bind(name))
    with jax.enable_x64(True), np.errstate(all="ignore"):
        fn = jax.jit(lambda t: accurate64._NPR_A64_UNARY[name](t, lambda v: exact(v) + skew))
        got, want = np.asarray(fn(EDGES)), ROUNDINGS[name](EDGES)
    np.testing.assert_array_equal(got, want)  # (NaN where NumPy's is)
    assert np.array_equal(np.signbit(got), np.signbit(want)) or np.isnan(want[np.signbit(got) != np.signbit(want)]).all()


@ieee
def test_rounding_away_from_zero_keeps_its_ties():
    with jax.enable_x64(True):
        fn = jax.jit(lambda t: float64_math._npr_a64_round64(t, lambda v: lax.round(v) - 1.0, away=True))
        got = np.asarray(fn(EDGES[np.isfinite(EDGES)]))
    want = np.where(EDGES[np.isfinite(EDGES)] < 0, -1.0, 1.0) * np.floor(np.abs(EDGES[np.isfinite(EDGES)]) + 0.5)
    np.testing.assert_array_equal(got, want)


def cells(x, h):
    return (x / h).astype(np.int64), x.astype(np.int32), np.floor(x * 10.0), np.round(x, 3)


@ieee
def test_casts_to_integers_truncate_first(monkeypatch):
    """A TPU casts a float64 pair part by part: `(x / h).astype(int)` (a particle's cell) was one
    off for 156 of 16,000 values on the chip. With the rewrite forced, the cast reads an integer
    made by floor or ceil (NumPy's from any backend answer, above), and the results are NumPy's."""
    _forced(monkeypatch)
    x = EDGES[np.isfinite(EDGES) & (np.abs(EDGES) < 2**31)]
    compiled = np2ref.compile(cells, host_below=0)
    for got, want in zip(compiled(x, 0.1), cells(x, 0.1)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    with jax.enable_x64(True):
        cast = jax.make_jaxpr(lambda v: v.astype(np.int64))(x)
        text = str(accurate64._npr_accurate_jaxpr(cast.jaxpr))
    assert "floor" not in str(cast) and "floor" in text and "ceil" in text and "convert_element_type" in text


def _float32_interpreter(jaxpr, consts, *args):
    """eval_jaxpr with every float64 primitive of accurate64's table computed in float32 (and
    dot_general at bfloat16-like precision only when not HIGHEST): what a TPU did."""
    env = dict(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))
    read = lambda v: jax.numpy.asarray(v.val, v.aval.dtype) if isinstance(v, _npr_core.Literal) else env[v]  # noqa: E731
    lossy = set(accurate64._NPR_A64_UNARY) | set(accurate64._NPR_A64_BINARY)
    for eqn in jaxpr.eqns:
        vals = [read(v) for v in eqn.invars]
        if eqn.primitive.name in lossy and all(np.dtype(v.dtype) == np.float64 for v in vals):
            out = eqn.primitive.bind(*[v.astype(np.float32) for v in vals], **eqn.params).astype(np.float64)
            outs = [out]
        else:
            outs = eqn.primitive.bind(*vals, **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
        env.update(zip(eqn.outvars, outs))
    return [read(v) for v in jaxpr.outvars]


def _coefficients(fc, fs, q, xp=np):  # iir_filter's design_lowpass, with a power and a tanh
    w0 = 2.0 * np.pi * fc / fs
    alpha = xp.sin(w0) / (2.0 * q)
    cw = xp.cos(w0)
    return (1.0 - cw) / (1.0 + alpha), xp.exp(-w0) * xp.log1p(q) ** 1.5 + xp.tanh(alpha)


@ieee
def test_rewrite_restores_what_a_float32_transcendental_loses():
    args = (40.0, 1000.0, 0.7071)
    want = _coefficients(*args)
    with jax.enable_x64(True):
        closed = jax.make_jaxpr(lambda *a: _coefficients(*a, xp=jax.numpy))(*args)
        vals = [np.float64(v) for v in args]
        lossy = _float32_interpreter(closed.jaxpr, closed.consts, *vals)
        fixed = _float32_interpreter(accurate64._npr_accurate_jaxpr(closed.jaxpr), closed.consts, *vals)
    assert worst_error(np.array(want), np.array(lossy)) > 1e-9  # the TPU's loss: the test can fail
    assert worst_error(np.array(want), np.array(fixed)) < 1e-15


def test_rewritten_where_the_tpu_lost_digits():
    """0-d values (the TPU's scalar unit) and sin/cos/tan of arrays are rewritten; an array's exp
    and division (their digits kept on the chip) stay XLA's."""
    with jax.enable_x64(True):
        closed = jax.make_jaxpr(lambda a, s: (jax.numpy.exp(a) / a + jax.numpy.exp(s) / s, jax.numpy.sin(a)))(X, 0.5)
        names = [e.primitive.name for e in accurate64._npr_accurate_jaxpr(closed.jaxpr).eqns]
    assert names.count("exp") == 1 and names.count("sin") == 1  # the array's exp; sin's fallback
    assert len(names) > 100


def _forced(monkeypatch):
    monkeypatch.setitem(accurate64._npr_ACCURATE64, "on", True)


@ieee
def test_compiled_program_rewritten_and_dots_highest(tmp_path, monkeypatch):
    _forced(monkeypatch)
    m = load_module("""
        import numpy as np
        def f(x, w, u, n):
            c = np.cos(w) * np.exp(u[0])
            for i in range(n):
                x[i] = np.tanh(x[i]) + c + np.sin(u[i]) ** 2.5
            return x @ u[:x.shape[0]] + np.arcsin(u[0] / 4)
    """, tmp_path)
    x, u = np.linspace(0.1, 1, 8), np.linspace(0.2, 3, 16)
    compiled = np2ref.compile(m.f)
    assert_same_as_numpy(m.f, compiled, x, 0.7, u, 8)
    assert "HIGHEST" in compiled.lower(x.copy(), 0.7, u, 8).as_text()
    narrow = np2ref.compile(m.f, dtype_policy="float32")  # a TPU's float32 products: bfloat16 passes
    assert "HIGHEST" in narrow.lower(x.copy(), 0.7, u, 8).as_text()


@ieee
@pytest.mark.parametrize("stem", ["tax_brackets_masked", "pic_cic_deposit"])
def test_float32_policy_within_its_tolerance(stem, monkeypatch):
    """math.exp of a traced float and a float cast to int64 without x64 (both raised on every
    backend), with the rewrite forced: NumPy's float64 answer to 1e-4."""
    _forced(monkeypatch)
    assert float32_error(stem) <= 1e-4


@ieee
@pytest.mark.parametrize("stem", ["iir_filter", "implicit_diffusion_thomas"])
def test_corpus_with_the_rewrite_forced(stem, monkeypatch):
    """The programs that lost digits on the TPU, through the rewrite on the CPU: NumPy's answer."""
    _forced(monkeypatch)
    module = _corpus(stem)
    fn = getattr(module, module.ENTRY)
    assert_same_as_numpy(fn, np2ref.compile(fn), **module.make_inputs("small"))


def test_a_solve_through_the_rewrite_is_refused_by_name():
    """fem1d_chained_rows's np.linalg.solve failed on the TPU with AttributeError: 'tuple' object has no
    attribute 'solve' (the rewrite rebuilt custom_linear_solve's named tuple of bodies as a tuple); with
    the rewrite forced its LU is reached and refused by name."""
    module = _corpus("fem1d_chained_rows")
    with pytest.MonkeyPatch.context() as mp:
        _forced(mp)
        with pytest.raises(np2ref.Np2RefError, match="NPR302.*`lu`"):
            np2ref.compile(getattr(module, module.ENTRY))(**module.make_inputs("small"))


def test_decompositions_the_tpu_cannot_compile_are_refused(tmp_path, monkeypatch):
    """An LU of float64 (np.linalg.solve, inv, det): XLA's TPU compiler raised its own UNIMPLEMENTED
    error at the first call (fem1d_chained_rows on the chip, benchmarks/tpu_linalg64.py's probe); NPR302 naming
    the operation now. cholesky, eigh, qr, svd and triangular solves compile there."""
    _forced(monkeypatch)
    m = load_module("""
        import numpy as np
        def solve(a, b):
            return np.linalg.solve(a, b)
        def inv(a):
            return np.linalg.inv(a)
        def chol(a):
            return np.linalg.cholesky(a)
    """, tmp_path)
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    for fn, args, op in ((m.solve, (a, np.ones(2)), "`lu`"), (m.inv, (a,), "`lu`")):
        with pytest.raises(np2ref.Np2RefError, match="NPR302") as caught:
            np2ref.compile(fn)(*args)
        assert op in str(caught.value)
    np.testing.assert_allclose(np2ref.compile(m.chol)(a), np.linalg.cholesky(a), rtol=1e-13)


def test_refused_without_a_formulation(tmp_path, monkeypatch):
    _forced(monkeypatch)
    m = load_module("""
        import numpy as np
        def f(x):
            x[np.signbit(x)] = 0.0
    """, tmp_path)
    with pytest.raises(np2ref.Np2RefError, match="NPR302"):
        np2ref.compile(m.f)(np.array([-1.0, 2.0]))


def test_constants_added_to_0d_float64_go_behind_a_barrier():
    """`1.0 - w` with w a 0-d float64 kept float32's precision on the chip (2.5e-8; the same
    subtraction of two traced values 1e-15): each 0-d float64 addition or subtraction of a
    value XLA knows at compile time reads it through an optimization barrier. Arrays and
    products are left alone, and on IEEE float64 the value is unchanged."""
    with jax.enable_x64(True):
        closed = jax.make_jaxpr(lambda w, a: (1.0 - w, -w + 3.0, a * (1.0 - w), 2.0 * w, 1.0 - a))(0.1, X[:3])
        eqns = accurate64._npr_accurate_jaxpr(closed.jaxpr).eqns
        shielded = [e for e in eqns if e.primitive.name == "optimization_barrier"]
        assert [float(e.invars[0].val) for e in shielded] == [1.0, 3.0, 1.0]
        w = np.float64(0.7234)
        got = jax.jit(lambda w: _npr_core.eval_jaxpr(accurate64._npr_accurate_jaxpr(
            jax.make_jaxpr(lambda v: 1.0 - v)(w).jaxpr), [], w)[0])(w)
    assert got == 1.0 - w


def test_complex128_refused_before_the_compiler(tmp_path, monkeypatch):
    """A TPU has no complex128: its compiler aborted the whole process (`Unsupported CVT
    X{64|128} expansion from f64 to c128`, NPBench mandelbrot's `X + 1j * Y`). With the
    rewrite on it is NPR302 naming it; dtype_policy='float32' computes in complex64."""
    _forced(monkeypatch)
    module = load_module("import numpy as np\n\ndef f(x):\n    z = x + 1j * x[::-1]\n    z *= z\n"
                         "    return np.abs(z)\n", tmp_path, "tpu_complex")
    with pytest.raises(np2ref.Np2RefError, match="NPR302 complex128"):
        np2ref.compile(module.f, host_below=0)(X[:4].copy())
    got = np2ref.compile(module.f, host_below=0, dtype_policy="float32")(X[:4].copy())
    assert worst_error(module.f(X[:4].copy()), np.asarray(got, np.float64)) <= 1e-4


def test_float_divmod_reads_no_sign_bit():
    a = np.array([7.25, -7.25, 0.0, -0.0, 5.0, -5.0, 1e16, 3.0, 0.0, 4.0])
    b = np.array([2.5, 2.5, 2.5, -2.5, -2.5, -5.0, 3.0, 0.0, -3.0, -2.0])
    with jax.enable_x64(True):
        text = str(jax.make_jaxpr(_npr_float_divmod)(a, b))
        q, m = jax.jit(_npr_float_divmod)(a, b)
    assert "shift_right" not in text and "bitcast" not in text
    with np.errstate(all="ignore"):
        eq, em = np.divmod(a, b)
    for want, got in ((eq, q), (em, m)):
        got = np.asarray(got)
        if TPU:  # float64 is a float32 pair there: 1e16 // 3.0 to its 48 bits; and it has no -0.0
            # (-0.0 sent to the chip comes back 0.0, 0.0 / -3.0 is 0.0: measured, docs/tpu.md)
            assert np.all(np.isnan(got) == np.isnan(want))
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-13 * np.abs(a).max())  # 1e16 % 3.0 is 0.0 there
            signed = (want != 0) & ~np.isnan(want)  # (a NaN's sign is no answer: x86's is set)
            assert np.array_equal(np.signbit(got)[signed], np.signbit(want)[signed])
        else:
            assert np.array_equal(got, want, equal_nan=True)
            assert np.array_equal(np.signbit(got), np.signbit(want))


# ---- on the chip: the corpus programs issue 38 found wrong there --------------------------------

LOST = ["iir_filter", "implicit_diffusion_thomas", "tax_brackets_masked", "lj_cutoff_vectorised",
        "nbody_pair_loop", "pic_cic_deposit", "heat2d_explicit", "jacobi_poisson2d"]


def _corpus(stem):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"tpu_corpus_{stem}", ROOT / "corpus" / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not TPU, reason="on a TPU only (benchmarks/tpu_lane.sh)")
@pytest.mark.parametrize("stem", LOST)
def test_corpus_on_tpu_preserve(stem):
    module = _corpus(stem)
    fn = getattr(module, module.ENTRY)
    assert_same_as_numpy(fn, np2ref.compile(fn), **module.make_inputs("small"))


# float32 on an accelerator: NumPy's float64 answer to float32's tolerance (verify's rtol 1e-4),
# every array argument and the result (docs/tpu.md, "What exact means in float32")
def _as64(v):
    if isinstance(v, (tuple, list)):
        return [_as64(x) for x in v]
    return np.asarray(v, np.float64)


def float32_error(stem):
    """The float32 policy's worst error against NumPy's float64 run: result and float arguments."""
    module = _corpus(stem)
    fn = getattr(module, module.ENTRY)
    inputs = module.make_inputs("small")
    a0, a1 = copy.deepcopy(inputs), copy.deepcopy(inputs)
    want = fn(**a0)
    got = np2ref.compile(fn, dtype_policy="float32")(**a1)
    return max([worst_error(_as64(want), _as64(got))] +
               [worst_error(_as64(a0[k]), _as64(a1[k])) for k in a0 if isinstance(a0[k], np.ndarray)])


# the two with lax loops run on the CPU too: a loop variable made int64 without x64 crashed
# the float32 policy there as on the chip (found by the TPU lane, 2026-12-06)
@pytest.mark.parametrize("stem", LOST)
def test_corpus_float32_policy(stem):
    if not TPU and stem not in ("iir_filter", "implicit_diffusion_thomas"):
        pytest.skip("on a TPU only (benchmarks/tpu_lane.sh)")
    assert float32_error(stem) <= 1e-4


INT_PRODUCTS = """
import numpy as np

def products(a, b, c, t):
    t[:] = np.einsum('bij,bjk->bik', c, c)
    return a @ b, np.dot(a[0], b[:, 1]), np.tensordot(a, b.T, axes=([1], [1])), np.outer(a[1], b[0])
"""


def test_int64_products_are_sums_of_products(tmp_path, monkeypatch):
    """A TPU has no 64-bit integer dot (`UNIMPLEMENTED ... X{64|128} ... dot`, trmm on int64 on the
    chip): the rewrite makes each one multiplications and a sum, which wrap modulo 2**64 in any
    order (NumPy's bits, overflow included); a product too large to broadcast at once sums one
    contracted index at a time."""
    _forced(monkeypatch)
    module = load_module(INT_PRODUCTS, tmp_path, "tpu_int_products")
    rng = np.random.default_rng(5)
    a, b = rng.integers(-2 ** 62, 2 ** 62, (3, 5)), rng.integers(-2 ** 62, 2 ** 62, (5, 4))
    c = rng.integers(-9, 9, (2, 3, 3)).astype(np.uint64)
    for room in (accurate64._NPR_A64_PRODUCT_ROOM, 1):
        monkeypatch.setattr(accurate64, "_NPR_A64_PRODUCT_ROOM", room)
        compiled = np2ref.compile(module.products, host_below=0)
        assert_same_as_numpy(module.products, compiled, a, b, c, np.zeros_like(c))
        jaxpr = compiled.lower(a, b, c, np.zeros_like(c)).as_text()
        assert "dot_general" not in jaxpr


@ieee
def test_float64_crosses_to_the_host_as_the_pair_a_tpu_holds(tmp_path, monkeypatch, capsys):
    """On a TPU a float64 is a float32 pair, and its bitcast gives the pair's float32 bits, not
    IEEE's (a printed 31.5 came out 7516192768.0 on the chip): float64 values cross to and from
    host calls as (hi, lo) float32 pairs there (rt/host_words.py). Forced on the CPU: values a
    pair holds cross exactly (prints, a draw's parameter, an opaque call's result)."""
    monkeypatch.setitem(host_words._npr_FLOAT_PAIRS, "on", True)
    module = load_module("""
        import numpy as np

        def opaque_scale(v):
            return float(v) * 0.5

        def f(x, rng):
            total = x.sum()
            print("total", total, total.item(), x.max())
            shift = rng.normal(total, 1e-300)
            x *= opaque_scale(total)
            return shift, x.astype(np.int64).sum()
    """, tmp_path, "tpu_pairs")
    x = np.array([31.5, 2.0 ** -20, 7.25, -3.0])  # every partial sum a pair holds exactly
    want, out = module.f(x.copy(), np.random.default_rng(1)), capsys.readouterr().out
    got = np2ref.compile(module.f, host_below=0)(y := x.copy(), np.random.default_rng(1))
    assert capsys.readouterr().out == out
    assert [float(v) for v in got] == [float(v) for v in want]
    np.testing.assert_array_equal(y, x * (x.sum() * 0.5))
    words = host_words.NprWords()
    v = np.array([1.0 / 3.0, -2.5e-20, 1e30, np.inf, -np.inf, np.nan])  # a pair: float32's range (docs/tpu.md)
    with jax.enable_x64(True):
        back = words.received(jax.jit(lambda u: words.send(u, u.dtype))(v), np.float64)
    np.testing.assert_allclose(back, v, rtol=1e-14)
