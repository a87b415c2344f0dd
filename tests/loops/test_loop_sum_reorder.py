"""`np2ref.compile(fn, sums="reorder")` (rewrite/sum_reorder.py, rt/sum_reorder.py; issue 39): a loop
whose only carried dependence is `R[P] += value` summed as one contraction over its range. Not
NumPy's bits: each result is compared with NumPy's to the stated tolerance, (K + 2) * eps times the
sum of the magnitudes (the kernel run on the arguments' absolute values), and the loops that must
stay loops are NumPy's bit for bit."""

import jax
import numpy as np
import pytest

import np2ref
import np2ref.rt.sum_reorder as S
from conftest import assert_numpys_bits


def syrk(alpha, beta, C, A):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]


def syr2k(alpha, beta, C, A, B):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += A[:i + 1, k] * alpha * B[i, k] + B[:i + 1, k] * alpha * A[i, k]


def gemv_minus(y, A, x, b):
    for k in range(A.shape[1]):
        t = x[k] * 2.0
        y[:] -= A[:, k] * t - b[k]


def gemv_plus(y, A, x, b):  # gemv_minus's terms' magnitudes, added (on absolute values)
    for k in range(A.shape[1]):
        y[:] += A[:, k] * x[k] * 2.0 + b[k]


def two_sums(s, q, A):
    for k in range(A.shape[0]):
        s[0] += A[k, 0] * A[k, 1]
        q[1:] += A[k, 1:]


def constant_term(y, c, n):
    for k in range(n):
        y[1] += c * 0.5


def outer_lax(C, A):
    total = 0.0  # carried: the loop over i stays a lax loop, its k loop's slice moves with i
    for i in range(A.shape[0]):
        total = total + 1.0
        for k in range(A.shape[1]):
            C[i, :i + 1] += A[i, k] * A[:i + 1, k]
    return total


REORDERED = {  # name: (function, argument maker, trips K of the reordered sum)
    "syrk": (syrk, lambda r, d: (1.5, 1.2, r((20, 20)).astype(d), r((20, 30)).astype(d)), 30),
    "syr2k": (syr2k, lambda r, d: (1.5, 1.2, r((20, 20)).astype(d), r((20, 30)).astype(d), r((20, 30)).astype(d)), 60),
    "gemv_minus": (gemv_minus, lambda r, d: (r(12).astype(d), r((12, 9)).astype(d), r(9).astype(d), r(9).astype(d)), 9),
    "two_sums": (two_sums, lambda r, d: (r(3).astype(d), r(3).astype(d), r((40, 3)).astype(d)), 40),
    "constant_term": (constant_term, lambda r, d: (r(3).astype(d), 0.1, 25), 25),
    "outer_lax": (outer_lax, lambda r, d: (r((10, 10)).astype(d), r((10, 16)).astype(d)), 16),
}
_COMPILED = {}


def _compiled(fn, **options):
    key = (fn.__name__, tuple(sorted(options.items())))
    if key not in _COMPILED:
        _COMPILED[key] = np2ref.compile(fn, host_below=0, **options)
    return _COMPILED[key]


def _reordered(compiled) -> bool:
    """Whether the compiled function's own converted text calls npr_sum_for."""
    text = compiled.source
    own = text[text.index(f"def {compiled.__name__}("):]
    nxt = own.find("\ndef ", 1)
    return "npr_sum_for(" in (own if nxt < 0 else own[:nxt])


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _run(fn, args):
    args = _copies(args)
    return fn(*args), args


def _magnitudes(fn, args):
    """The kernel on absolute values: every term's magnitude, summed (a sum of products' bound;
    gemv_minus subtracts its terms: gemv_plus adds them)."""
    return _run(gemv_plus if fn is gemv_minus else fn, [abs(a) if isinstance(a, (np.ndarray, float)) else a for a in args])


def assert_reordered(got, want, scale, trips):
    """got within (trips + 2) * eps * scale of NumPy's `want`, elementwise; NumPy's dtype and shape."""
    got, want, scale = np.asarray(got), np.asarray(want), np.asarray(scale)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want)
        return
    bound = (trips + 2) * np.finfo(want.dtype).eps * np.abs(scale)
    assert np.all(np.abs(got - want) <= bound), np.max(np.abs(got - want) - bound)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(REORDERED))
def test_reordered_sums_are_numpys_to_the_tolerance(name, dtype):
    fn, make, trips = REORDERED[name]
    args = make(np.random.default_rng(3).standard_normal, dtype)
    compiled = _compiled(fn, sums="reorder")
    assert _reordered(compiled)
    want_result, want = _run(fn, args)
    got_result, got = _run(compiled, args)
    scale_result, scale = _magnitudes(fn, args)
    if want_result is not None:
        assert type(got_result) is type(want_result) and got_result == want_result
    for g, w, s in zip(got, want, scale):
        if isinstance(w, np.ndarray):
            assert_reordered(g, w, s, trips)


@pytest.mark.parametrize("name", ["syrk", "syr2k"])
def test_the_reordered_loop_is_one_contraction(name):
    """No loop is left in the program: the k loop's 30 sequential steps became dot_generals."""
    fn, make, _ = REORDERED[name]
    with jax.enable_x64(True):
        args = [jax.device_put(a) for a in make(np.random.default_rng(0).standard_normal, np.float64)]
        text = str(jax.make_jaxpr(_compiled(fn, sums="reorder").pure)(*args))
        exact = str(jax.make_jaxpr(_compiled(fn).pure)(*args))
    assert not any(loop in text for loop in ("while[", "scan[")) and "dot_general" in text
    assert any(loop in exact for loop in ("while[", "scan["))


def test_without_the_opt_in_the_loop_is_numpys_bits():
    compiled = _compiled(syrk, bitwise=True)  # (bitwise: no FMA, NumPy's roundings: docs/semantics.md)
    assert not _reordered(compiled)
    args = REORDERED["syrk"][1](np.random.default_rng(1).standard_normal, np.float64)
    assert_numpys_bits(_run(compiled, args)[1][2], _run(syrk, args)[1][2])


def test_the_runtime_switch_runs_the_loop_bit_for_bit(monkeypatch):
    """npr_sum_for's fallback is the loop itself: with the switch off, NumPy's bits."""
    monkeypatch.setattr(S, "NPR_SUM_REORDER", False)
    args = REORDERED["gemv_minus"][1](np.random.default_rng(2).standard_normal, np.float64)
    compiled = np2ref.compile(gemv_minus, host_below=0, sums="reorder", bitwise=True)
    assert_numpys_bits(_run(compiled, args)[1][0], _run(gemv_minus, args)[1][0])


def reads_its_sum(s, a):
    for k in range(a.shape[0]):
        s[0] += a[k] * s[1]


def indexed_by_k(s, a):
    for k in range(a.shape[0]):
        s[k % 2] += a[k]


def scalar_carried(s, a):
    t = 0.0
    for k in range(a.shape[0]):
        t = t + a[k]
        s[0] += t


def view_of_it(s, a):
    v = s[1:]
    for k in range(a.shape[0]):
        s[0] += v[0] * a[k]


def branch_in_body(s, a):
    for k in range(a.shape[0]):
        if a[k] > 0:
            s[0] += a[k]


def int_sum(s, a):
    for k in range(a.shape[0]):
        s[0] += a[k] * 3


@pytest.mark.parametrize("fn,reordered", [(reads_its_sum, False), (indexed_by_k, False), (scalar_carried, False),
                                          (view_of_it, False), (branch_in_body, False), (int_sum, True)])
def test_loops_that_stay_loops_are_numpys_bits(fn, reordered):
    """A body that reads what it adds into, an index that moves with k, a carried name, a view of
    the sum, a branch: a dependence beyond the sum, so the loop (NumPy's bits). Integers: reordered
    in the source, but npr_sum_for runs the loop (their sum's order is not reordered)."""
    compiled = _compiled(fn, sums="reorder", bitwise=True)
    assert _reordered(compiled) == reordered
    dtype = np.int64 if fn is int_sum else np.float64
    rng = np.random.default_rng(4)
    args = [(rng.standard_normal(3) * 10).astype(dtype), (rng.standard_normal(17) * 10).astype(dtype)]
    for got, want in zip(_run(compiled, args)[1], _run(fn, args)[1]):
        assert_numpys_bits(got, want)


def test_no_trips_add_nothing():
    """`for k in range(0)`: NumPy adds nothing, so a -0.0 stays -0.0 (adding a +0.0 sum would not)."""
    y = np.array([1.0, -0.0, 2.0])
    got = y.copy()
    _compiled(constant_term, sums="reorder")(got, 0.1, 0)
    assert_numpys_bits(got, y)


def test_explain_names_the_reordered_loop():
    text = _compiled(syrk, sums="reorder").explain()
    assert "`for k`: sums reordered (sums='reorder')" in text and "into C" in text
    assert "sums reordered" not in _compiled(syrk).explain()


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="sums must be"):
        np2ref.compile(syrk, sums="fast")


SYRK_FILE = '''import numpy as np


def syrk(alpha, beta, C, A):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]
'''


@pytest.mark.parametrize("how", ["flag", "config", "default"])
def test_convert_reorders_with_the_flag_or_the_config(tmp_path, capsys, how):
    """`np2ref convert --sums reorder` and `[tool.np2ref] sums = "reorder"` write npr_sum_for;
    without either, the loop (NumPy's order)."""
    from np2ref.cli import main
    src = tmp_path / "kernel.py"
    src.write_text(SYRK_FILE)
    if how == "config":
        (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\nsums = "reorder"\n')
    assert main(["convert", str(src), "--stdout", "--no-cache"] + (["--sums", "reorder"] if how == "flag" else [])) == 0
    assert ("npr_sum_for(" in capsys.readouterr().out) == (how != "default")


def test_a_bad_sums_in_the_config_is_a_usage_error(tmp_path):
    from np2ref.cli import main
    (tmp_path / "kernel.py").write_text(SYRK_FILE)
    (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\nsums = "fast"\n')
    assert main(["convert", str(tmp_path / "kernel.py"), "--stdout"]) == 2


def test_grad_and_vmap_of_the_reordered_sum_are_the_loops_to_the_tolerance():
    """jax.grad and jax.vmap of `.pure` through npr_sum_for (its vmap and dot_general; the lane
    reads step aside under differentiation) agree with the exact loop's."""
    import jax.numpy as jnp
    alpha, beta, C, A = REORDERED["syrk"][1](np.random.default_rng(6).standard_normal, np.float64)
    out = {}
    with jax.enable_x64(True):
        for sums in ("exact", "reorder"):
            pure = _compiled(syrk, **({"sums": sums} if sums == "reorder" else {})).pure
            final = lambda a: pure(alpha, beta, jnp.asarray(C), a)[1]["C"]  # noqa: E731
            # jitted: run eagerly, every operation of the transformed program compiled on its own
            # (214 compiles, 8.5 s of CPU; docs/ci.md)
            out[sums] = (np.asarray(jax.jit(jax.grad(lambda a: final(a).sum()))(jnp.asarray(A))),
                         np.asarray(jax.jit(jax.vmap(final))(jnp.stack([jnp.asarray(A), -jnp.asarray(A)]))))
    for exact, reordered in zip(out["exact"], out["reorder"]):
        np.testing.assert_allclose(reordered, exact, rtol=1e-12, atol=1e-12 * np.abs(exact).max())
