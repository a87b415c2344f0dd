"""Differential tests: each construct in tests/programs/constructs.py, on inputs hypothesis
generates (duplicates in every index array, empty selections, negative steps, several dtypes),
run through NumPy and np2ref.compile: results and every array argument must agree."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import np2ref
from conftest import program as load_program, ROOT, assert_same_as_numpy, load_module

# 10 examples a test: nearly every example is a new static slice or a new index length, so a new
# compile (test_slice_store: 5 s of CPU time at 20); hypothesis draws others on the next run, and
# `np2ref fuzz` is the long differential run (docs/fuzzing.md)
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
N = 7


def program():
    return load_program("constructs")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(program(), name))


def check(name, *args):
    fn = getattr(program(), name)
    try:
        fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except Exception as exc:  # NumPy raises: np2ref must raise the same kind of error
        with pytest.raises(type(exc)):
            compiled(name)(*args)
        return
    assert_same_as_numpy(fn, compiled(name), *args)


dtypes = st.sampled_from([np.float64, np.float32, np.int32, np.int64])
bounds = st.integers(-N - 3, N + 3) | st.none()
steps = st.sampled_from([None, 1, 2, 3, -1, -2, -3])
indices = st.lists(st.integers(-N, N - 1), min_size=0, max_size=10).map(lambda x: np.array(x, dtype=np.int64))


def array(dtype, n=N, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * 5).astype(dtype)


@SETTINGS
@given(dtypes, bounds, bounds, steps, st.floats(-4, 4, allow_nan=False))
def test_slice_store(dtype, start, stop, step, v):
    check("slice_store", array(dtype), start, stop, step, v)


@SETTINGS
@given(bounds, bounds, steps, st.integers(-3, 3))
def test_slice_aug(start, stop, step, v):
    check("slice_aug", array(np.int32), start, stop, step, v)
    check("slice_aug", array(np.float64), start, stop, step, float(v) + 0.5)


@SETTINGS
@given(dtypes, indices)
def test_fancy_store_last_wins(dtype, idx):
    v = np.arange(len(idx), dtype=np.float64) * 1.5
    check("fancy_store", array(dtype), idx, v)


@SETTINGS
@given(indices, st.integers(0, 1))
def test_fancy_aug_buffered(idx, seed):
    check("fancy_aug", array(np.float64, seed=seed), idx, np.linspace(1.0, 2.0, len(idx)))
    check("fancy_aug", array(np.int64, seed=seed), idx, 3)


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-5, 4)), max_size=8))
def test_fancy_2d(pairs):
    rows = np.array([p[0] for p in pairs], dtype=np.int64)
    cols = np.array([p[1] for p in pairs], dtype=np.int64)
    check("fancy_mul_2d", np.arange(20.0).reshape(4, 5), rows, cols, 1.5)
    check("add_at_2d", np.zeros((4, 5)), rows, cols, np.arange(len(pairs), dtype=np.float64))


@SETTINGS
@given(indices)
def test_ufunc_at_accumulates(idx):
    check("add_at", np.zeros(N), idx, np.arange(len(idx), dtype=np.float64) + 1.0)
    check("add_at", np.zeros(N, dtype=np.int64), idx, 2)
    check("min_max_at", array(np.float64), idx, 0.5)


@SETTINGS
@given(st.integers(0, 3), st.floats(-2, 2, allow_nan=False))
def test_masks(seed, t):
    check("mask_ops", array(np.float64, seed=seed), array(np.float64, seed=seed + 10), t)


@SETTINGS
@given(st.floats(-3, 3, allow_nan=False), st.integers(2, 5))
def test_views(k, n):
    check("view_chain", np.arange(n * n, dtype=np.float64).reshape(n, n), k)


def test_int_ops_and_helpers():
    check("int_ops", np.arange(-6, 6, dtype=np.int32), np.int32(5))
    check("int_ops", np.arange(-6, 6, dtype=np.int64), np.arange(12))
    check("caller", np.arange(4.0), np.arange(5.0))


def test_same_kind_casting_error_matches_numpy():
    check("slice_aug", array(np.int32), 0, 3, 1, 0.5)  # NumPy raises UFuncTypeError


@pytest.mark.parametrize("n, m", [(50, 400), (1000, 300)])
def test_many_duplicate_indices_last_wins(n, m):
    # more traced indices than the pairwise dedupe takes: each target's last position found by a
    # scatter-max (n <= 4m, or small) or by a stable sort (a target much larger than the indices)
    rng = np.random.default_rng(n)
    idx = rng.integers(-n, n, m)
    check("fancy_store", array(np.float64, n=n), idx, np.arange(m, dtype=np.float64) * 1.5)
    check("fancy_aug", array(np.float64, n=n), idx, np.linspace(1.0, 2.0, m))
    check("fancy_aug", array(np.int32, n=n), idx, 3)


def test_gradient_of_many_duplicate_indices():
    import jax

    fn = compiled("fancy_aug")
    idx = np.concatenate([np.arange(200) % 7, [3]])  # 201 indices: the scatter-max dedupe
    weights = 10.0 ** np.arange(7)

    def loss(v):
        _, final = fn.pure(np.zeros(7), idx, v)
        return (final["a"] * weights).sum()

    with jax.enable_x64(True):
        g = np.asarray(jax.jit(jax.grad(loss))(np.linspace(1.0, 2.0, 201)))
    expected = np.zeros(201)
    for target in range(7):  # only the last write of each target counts
        expected[np.nonzero(idx == target)[0][-1]] = weights[target]
    np.testing.assert_array_equal(g, expected)


def test_gradient_of_duplicate_index_store():
    """jax.grad through a buffered duplicate-index update matches finite differences."""
    import jax

    fn = compiled("fancy_aug")
    idx = np.array([0, 0, 2, 0])

    def loss(v):
        _, final = fn.pure(np.zeros(4), idx, v)
        return (final["a"] * np.array([1.0, 10.0, 100.0, 1000.0])).sum()

    with jax.enable_x64(True):
        g = np.asarray(jax.jit(jax.grad(loss))(np.array([1.0, 2.0, 3.0, 4.0])))
    assert np.allclose(g, [0.0, 0.0, 100.0, 1.0])  # only the last write of each target counts


@SETTINGS
@given(st.integers(3, 9), st.floats(0.0, 0.5), st.integers(0, 12), st.integers(0, 3))
def test_identity_return_in_a_rotated_loop(n, c, steps, seed):
    check("leapfrog", array(np.float64, n, seed), c, steps)


def test_identity_return_keeps_the_loop_a_lax_loop():
    """`u_next = clamp_ends(u_next)` binds u_next to itself: the loop is a lax loop and the line
    is the call; the translation agrees with NumPy under jit, vmap and grad."""
    source = compiled("leapfrog").source
    body = source[source.index("def leapfrog"):]
    body = body[:body.index("\ndef ")]
    assert "npr_for(npr_range(steps), _loop_k)" in body and "for k in" not in body
    assert "\n        npr_value(clamp_ends(u_next))\n" in body
    report = np2ref.verify(compiled("leapfrog"), array(np.float64), 0.2, 6, examples=5, seed=0)
    assert report.ok, str(report)
    assert all(report[t].passed for t in ("jit", "vmap", "grad")), str(report)


@pytest.mark.parametrize("kind", range(5), ids=["copy", "rebound", "two_paths", "falls_off", "aug"])
def test_helpers_not_returning_their_parameter_rebind(kind):
    """A copy, a rebound parameter, another path's value, falling off the end: the assignment
    rebinds, so the loop keeps NumPy's rebinding (a Python loop), and agrees. `p += v; return p`
    returns the array parameter itself (branch aliasing: op='d parameters), so `w = clamp_aug(w)`
    binds w to its own buffer, checked when traced (npr_returned), and agrees too."""
    source = compiled("smooth_with").source
    body = source[source.index("def smooth_with"):]
    assert source.count("w = npr_own(clamp_") == 4 and "npr_returned(clamp_aug(w), w)" in body
    assert "npr_for(" not in body
    for dtype in (np.float64, np.int32):
        for flag in (True, False) if kind != 3 else (True,):  # falls_off(w, False) is None
            check("smooth_with", kind, array(dtype), 4, flag)


@SETTINGS
@given(dtypes, st.floats(-2, 2, allow_nan=False))
def test_helpers_between_fresh_allocations(dtype, scale):
    """A helper writes one argument and reads another; every argument is a fresh allocation
    (`u0.copy()`, `u0 + s`, a literal), so nothing is shared: accepted, and agrees with NumPy."""
    check("damp_a_copy", array(dtype))
    check("smooth_between_allocations", array(dtype), scale)


def test_helper_given_the_same_buffer_twice_reads_it_before_writing():
    """smooth_into(u, u): the helper reads `src` only in the statement that first writes `dst`,
    whose right-hand side NumPy computes before it stores: exact (was NPR201)."""
    check("smooth_into_itself", array(np.float64))


def test_helper_reading_the_same_buffer_after_writing_it_is_refused():
    u = array(np.float64)
    with pytest.raises(np2ref.Np2RefError, match="NPR201") as info:
        compiled("edge_into_itself")(u)
    # the diagnostic points at the call that passes the buffer twice, not at a `def`
    (diagnostic,) = info.value.diagnostics
    assert "edge_into(u, u)" in info.value.source.splitlines()[diagnostic.span.line - 1]
