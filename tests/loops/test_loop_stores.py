"""Stores in lax loops at the loop variable (rt/refs.py _npr_lift_refs, rt/lowering.py
_npr_only_store, rt/index.py _npr_TKey): a data-dependent `if` whose branches store one
region gives back just that region; an element read right after a store of it is the stored
value. Slices of a traced length computed in place (rt/masked.py offs) or shifted when their
starts differ, windows of a value read from it padded (rt/windows.py). Exact against NumPy
bit for bit (signed zeros, negative indices, regions and starts that differ)."""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, assert_same_as_numpy, on_tpu, program

P = program("loop_stores")
RNG = np.random.default_rng(1818)
A = RNG.standard_normal((6, 6))
A[1, 0], A[2, 2], A[3, 1] = -0.0, 0.0, -0.0
X = np.array([1.5, -0.0, -2.0, 0.0, 3.0, -1.0, 0.25])
Z = np.array([2.0, -0.0, -0.0, 1.0, -3.0, -0.0, 4.0])  # sums of these are exact in any order
CASES = {
    "branch_same_element": [(A,)],
    "branch_one_side": [(X.copy(),)],
    "branch_negative_index": [(X.copy(), np.zeros(7))],
    "branch_rows": [(A.copy(),)],
    "branch_two_stores_and_read": [(X.copy(), np.full(7, -0.0))],
    "branch_int_into_float": [(X.copy(), np.arange(7.0))],
    "branch_other_index": [(X.copy(), np.zeros(7), np.array([6, 0, 5, 1, 4, 2, 3]))],
    "symmetric": [(RNG.standard_normal((4, 5)),)],
    "read_other_after_store": [(X.copy(), np.array([0, 0, 1, 2, 6, 5, 5])), (X.copy(), np.arange(7))],
    "negative_after_store": [(X.copy(),)],
    "element_move": [(A.copy(), A.T.copy())],
    "element_chain": [(np.array([[np.nan, -0.0, np.inf], [0.0, -np.inf, 2.5]]), np.array([[3, -7, 0], [1, 2, -5]]),
                       np.array([[1 + 2j, -0.0j, np.nan], [np.inf, 1j, -2.0]]), np.zeros((2, 3), bool))],
    "shifted_slices": [(Z, Z[::-1].copy(), np.zeros(7))],
    "shifted_products": [(Z, Z[::-1].copy(), np.full((7, 7), -0.0))],
    "window_sums": [(Z, np.array([3, -1, 4, 1, -5, 9, 2], np.int32)), (np.full(5, -0.0), np.zeros(5, np.int64))],
}
_COMPILED = {}


def compiled(name):
    if name not in _COMPILED:
        _COMPILED[name] = np2ref.compile(getattr(P, name))
    return _COMPILED[name]


def _bits(a):
    if isinstance(a, tuple):
        return tuple(_bits(x) for x in a)
    a = np.asarray(a)
    return a.dtype, a.shape, np.ascontiguousarray(a).tobytes()


def _same_bits(want, got):
    """Bit for bit, signed zeros included; on a TPU, whose float64 is a float32 pair (no -0.0,
    48 bits: docs/tpu.md), assert_numpys_bits's."""
    if not on_tpu():
        assert _bits(want) == _bits(got)
    elif isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for w, g in zip(want, got):
            _same_bits(w, g)
    else:
        assert_numpys_bits(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_stores_in_loops_are_exact_bit_for_bit(name):
    if on_tpu() and any(np.iscomplexobj(a) for args in CASES[name] for a in args):
        with pytest.raises(np2ref.Np2RefError, match="NPR302 complex128"):  # a TPU has none
            compiled(name)(*[a.copy() if isinstance(a, np.ndarray) else a for a in CASES[name][0]])
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        for args in CASES[name]:
            expected, got = assert_same_as_numpy(getattr(P, name), compiled(name), *args)
            a0 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            a1 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            expected, got = getattr(P, name)(*a0), compiled(name)(*a1)
            if name == "symmetric":  # a sum: XLA's order (to tolerance), but c[j, i] is c[i, j]
                assert _bits(got) == _bits(np.asarray(got).T.copy())
            elif expected is not None:
                _same_bits(expected, got)  # signed zeros included
            for x, y in zip(a0, a1):
                _same_bits(x, y)


def _conds(jaxpr):
    """The output shapes of every cond, nested jaxprs included."""
    out = []
    for e in jaxpr.eqns:
        if e.primitive.name == "cond":
            out.append([tuple(v.aval.shape) for v in e.outvars])
        for p in e.params.values():
            for sub in (p if isinstance(p, (tuple, list)) else [p]):
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    out += _conds(inner)
    return out


def test_a_branch_that_stores_one_element_gives_back_only_it(monkeypatch):
    monkeypatch.setattr("np2ref.rt.vectorise.NPR_VECTORISE", False)  # the loop's conds (not vmap's selects)
    with jax.enable_x64(True):
        jx = jax.make_jaxpr(compiled("branch_same_element").pure)(jnp.asarray(A)).jaxpr
        jr = jax.make_jaxpr(compiled("branch_rows").pure)(jnp.asarray(A)).jaxpr
    assert _conds(jx) and all(shape == () for shapes in _conds(jx) for shape in shapes)
    # A[i, :] and A[i, 1:] are different regions: that cond gives back the whole array
    assert any((6, 6) in shapes for shapes in _conds(jr))


def test_grad_and_vmap_through_a_branch_store():
    c = compiled("branch_same_element")
    with jax.enable_x64(True):
        # jitted: one compile each (eager, every operation of the program compiled on its own)
        g = jax.jit(jax.grad(lambda a: c.pure(a)[0].sum()))(jnp.asarray(A))
        vs = jax.jit(jax.vmap(lambda a: c.pure(a)[0]))(jnp.asarray(np.stack([A, -A])))
    want = np.tril(np.where(A > 0, 2.0, -1.0))
    np.testing.assert_array_equal(g, want)
    assert_numpys_bits(vs[1], P.branch_same_element(-A))


def test_grad_and_vmap_through_chained_element_stores():
    """The store into tmp made to depend on the one into u (rt/store_order.py _npr_after) leaves
    gradients and batching as they were: d(sum u)/d tmp is 1, and each batch member moves."""
    c = compiled("element_move")
    u, t = np.arange(6.0).reshape(2, 3), -np.arange(6.0).reshape(2, 3)
    with jax.enable_x64(True):
        fin = lambda u, t: c.pure(u, t)[1]  # noqa: E731  (the final u and tmp)
        gu, gt = jax.jit(jax.grad(lambda u, t: fin(u, t)["u"].sum() + 3 * fin(u, t)["tmp"].sum(), (0, 1)))(
            jnp.asarray(u), jnp.asarray(t))
        vs = jax.jit(jax.vmap(fin))(jnp.asarray(np.stack([u, t])), jnp.asarray(np.stack([t, u])))
    np.testing.assert_array_equal(gu, np.zeros_like(u))
    np.testing.assert_array_equal(gt, np.ones_like(t))
    np.testing.assert_array_equal(vs["u"], np.stack([t, u]))
    np.testing.assert_array_equal(vs["tmp"], np.zeros((2, 2, 3)))


@pytest.mark.skipif(on_tpu(), reason="the hand ports divide 0-d float64 values at a TPU's float32 precision "
                    "(np2ref's rewrite is not theirs, docs/tpu.md): checked on IEEE float64")
def test_hand_ports_of_the_loop_kernels_equal_numpy():
    """benchmarks/hand/loops.py (what benchmarks/loop_perf.py times np2ref against)."""
    import sys
    from conftest import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import loop_kernels as K
    import loop_perf
    from hand import loops as H
    rng = np.random.default_rng(5)
    s = rng.standard_normal((5, 5))
    spd = s @ s.T + 5 * np.eye(5)
    x, d = rng.standard_normal(10), rng.standard_normal((6, 4))
    img, w = rng.standard_normal((2, 6, 7)), rng.standard_normal((3, 3))
    u, t = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    with jax.enable_x64(True), jax.default_matmul_precision("highest"):  # a TPU's default: bfloat16 passes
        np.testing.assert_allclose(H.windowed_sum(jnp.asarray(x), 3), K.windowed_sum(x, 3), rtol=1e-13)
        a = spd.copy()
        K.lu(a)
        np.testing.assert_allclose(H.lu(jnp.asarray(spd)), a, rtol=1e-12)
        np.testing.assert_allclose(H.cholesky(jnp.asarray(spd)), K.cholesky(spd), rtol=1e-12)
        np.testing.assert_allclose(H.correlation(jnp.asarray(d)), K.correlation(d), rtol=1e-12)
        np.testing.assert_allclose(H.conv2d(jnp.asarray(img), jnp.asarray(w)), loop_perf.conv2d(img, w), rtol=1e-12)
        for name in ("durbin", "forward_subst", "gram_schmidt"):
            args, _ = loop_perf.inputs(name, 6, rng)
            want = loop_perf.KERNELS[name](*[a.copy() for a in args])
            got = getattr(H, name)(*map(jnp.asarray, args))
            for w, g in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,)):
                np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
        u1, t1 = u.copy(), t.copy()
        loop_perf.element_swap(u1, t1)
        for fn in (H.element_swap, H.element_swap_stacked):
            got = fn(jnp.asarray(u), jnp.asarray(t))
            np.testing.assert_array_equal(got[0], u1)
            np.testing.assert_array_equal(got[1], t1)


@pytest.mark.parametrize("name, n", [("fresh_each_trip", 5), ("fresh_after_a_default", 4),
                                     ("fresh_after_a_default", 0), ("fresh_then_written_after", 3)])
def test_an_array_each_trip_makes_anew_is_carried_out_as_its_value(name, n):
    """`u, s = f(x); u[0] = s` each trip, u read after the loop: a lax loop carries the last
    trip's u out as a value (LoopPlan.fresh), where it ran as a Python loop (NPR033), traced
    once per trip. Written after the loop, u must stay a Ref: that loop stays Python's."""
    compiled = np2ref.compile(getattr(P, name), host_below=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error" if name != "fresh_then_written_after" else "ignore", np2ref.PythonLoopWarning)
        assert_same_as_numpy(getattr(P, name), compiled, np.arange(4.0), n)


def test_an_array_each_trip_makes_anew_is_unbound_after_zero_trips_as_in_python():
    compiled = np2ref.compile(P.fresh_each_trip, host_below=0)
    for fn in (P.fresh_each_trip, compiled):
        with pytest.raises(UnboundLocalError):
            fn(np.arange(4.0), 0)


def test_an_array_a_trip_may_skip_binding_is_carried_out_as_its_value():
    """`if t == 0: continue` before `u = ...`: the trip ends with u maybe unbound (an NprMaybe,
    frontend/jumps.py), whose value the trip's end loads (npr_trip_value; `u[...]` raised
    TypeError: the fuzzer's fresh_loop family). Unbound after one trip, as in Python."""
    compiled = np2ref.compile(P.fresh_after_continue, host_below=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        assert_same_as_numpy(P.fresh_after_continue, compiled, np.arange(4.0), 3)
        for fn in (P.fresh_after_continue, compiled):
            with pytest.raises(UnboundLocalError):
                fn(np.arange(4.0), 1)
