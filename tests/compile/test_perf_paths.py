"""The fast paths of np2ref.compile's call keep NumPy's semantics: aligned (zero-copy) inputs,
jax.Array arguments (NumPy results), `.device` for arrays kept on the device, plans keyed by
dtype, shape and static values. Behaviour only: no timing here (benchmarks/overhead.py)."""

from __future__ import annotations

import functools

import jax
import numpy as np
import pytest

import np2ref


def scaled(a, s):
    return a * s + 1.0


def axpy_(a, b, c):
    a += b * c


def old_then_bump(a, b):
    old = a.copy()
    a += b
    return old


def passthrough(a, b):
    return a, b + 1.0


def bump_and_return(a):
    a += 1.0
    return a


def tiled(a, n):
    return np.concatenate([a] * n)


@functools.cache
def compiled(fn):
    return np2ref.compile(fn)


def device64(x):
    with jax.enable_x64(True):
        return jax.device_put(np.asarray(x))


def test_aligned_helpers_give_plain_aligned_arrays():
    x = np.random.default_rng(0).random((7, 5))
    y = np2ref.aligned(x)
    assert y.ctypes.data % 64 == 0 and y.flags.c_contiguous and y.flags.writeable
    assert y.dtype == x.dtype and np.array_equal(x, y)
    assert np2ref.aligned(y) is y  # already aligned: no copy
    z = np2ref.aligned(x.T)  # not C-contiguous: an aligned C-contiguous copy
    assert z.flags.c_contiguous and z.ctypes.data % 64 == 0 and np.array_equal(z, x.T)
    e = np2ref.aligned_zeros((3, 2), np.int32)
    assert e.dtype == np.int32 and e.shape == (3, 2) and not e.any() and e.ctypes.data % 64 == 0
    assert np2ref.aligned_empty(4).shape == (4,)


def test_aligned_inputs_zero_copy_keep_numpy_results():
    """An aligned argument reaches XLA without a copy: results must still be fresh, writable
    NumPy arrays, and the caller's arrays change only by write-back."""
    rng = np.random.default_rng(1)
    a, b = np2ref.aligned(rng.random(256)), np2ref.aligned(rng.random(256))
    a0, b0 = a.copy(), b.copy()
    got_a, got_b = compiled(passthrough)(a, b)
    assert got_a is a  # an argument returned is the caller's own array, as in NumPy
    assert np.array_equal(got_b, b0 + 1.0) and got_b.flags.writeable
    assert not np.shares_memory(got_b, b) and np.array_equal(b, b0)
    old = compiled(old_then_bump)(a, b)
    assert np.array_equal(old, a0) and not np.shares_memory(old, a)  # the value before the write
    assert np.array_equal(a, a0 + b0) and np.array_equal(b, b0)  # written back
    old[:] = -1.0
    assert np.array_equal(a, a0 + b0)


def test_jax_array_arguments_give_numpys_results_without_copies_in():
    a = device64(np.arange(5.0))
    got = compiled(scaled)(a, 2.0)
    assert type(got) is np.ndarray and got.dtype == np.float64  # NumPy's, as the NumPy program returns
    assert np.array_equal(got, scaled(np.arange(5.0), 2.0))
    got = compiled(scaled)(a, 3.0)  # the plan's path
    assert type(got) is np.ndarray and np.array_equal(got, scaled(np.arange(5.0), 3.0))
    b = device64(np.ones(5))
    first, second = compiled(passthrough)(a, b)
    assert first is a and type(second) is np.ndarray  # the caller's own jax.Array back
    mixed = compiled(scaled)(np.arange(5.0), 2.0)  # NumPy in: NumPy out
    assert type(mixed) is np.ndarray


def pick(a, i):
    return a[i] * 2.0


def test_plan_calls_set_x64_for_the_call_only():
    # the plan's path sets jax_enable_x64 with the config's own swap (rt/compat.py), not a
    # context manager: the thread's setting must be what it was after a call, a failed one too
    a, y = device64(np.arange(5.0)), device64(np.ones(5))
    for outside in (False, True):
        with jax.enable_x64(outside):
            for _ in range(2):  # the first call binds and leaves a plan, the second takes it
                got = compiled(scaled)(a, 2.0)
                assert got.dtype == np.float64 and jax.config.jax_enable_x64 is outside
                result, finals = compiled(axpy_).device(y, 0.5, a)
                assert finals["a"].dtype == np.float64 and jax.config.jax_enable_x64 is outside
                with pytest.raises(IndexError):
                    compiled(pick)(a, np.int64(7))  # traced: checked when the program runs
                assert jax.config.jax_enable_x64 is outside
                assert jax.numpy.asarray(1.0).dtype == (np.float64 if outside else np.float32)
    np.testing.assert_array_equal(np.asarray(finals["a"]), np.ones(5) + 0.5 * np.arange(5.0))


def test_written_jax_array_is_rebound_as_numpy_code_rebinds_it():
    """A jax.Array cannot be written in place: NumPy code's `a += b * c` binds `a` anew, the
    caller's left as it was (an element write raises TypeError: test_device_fastpath.py)."""
    a, b, c = (device64(np.ones(4)) for _ in range(3))
    for _ in range(2):
        assert compiled(axpy_)(a, b, c) is None and np.array_equal(np.asarray(a), np.ones(4))
    u = np.ones(4)
    assert compiled(axpy_)(u, b, c) is None and np.array_equal(u, np.full(4, 2.0))  # NumPy written back


def test_device_call_returns_finals_and_changes_nothing():
    rng = np.random.default_rng(2)
    u0, b0, c0 = rng.random(6), rng.random(6), rng.random(6)
    step = compiled(axpy_)
    u, b, c = device64(u0), device64(b0), device64(c0)
    expected = u0.copy()
    for _ in range(3):
        result, finals = step.device(u, b, c)
        axpy_(expected, b0, c0)
        assert result is None and isinstance(finals["a"], jax.Array)
        u = finals["a"]
    assert np.allclose(np.asarray(u), expected, rtol=1e-15, atol=0)  # XLA may fuse b * c + a
    assert np.array_equal(np.asarray(b), b0)
    host = u0.copy()
    _, finals = step.device(host, b0, c0)  # NumPy in: nothing written back
    assert np.array_equal(host, u0) and np.allclose(np.asarray(finals["a"]), u0 + b0 * c0, rtol=1e-15, atol=0)
    result, finals = compiled(bump_and_return).device(device64(u0))
    assert np.array_equal(np.asarray(result), u0 + 1.0) and np.array_equal(np.asarray(finals["a"]), u0 + 1.0)


def test_device_call_refuses_one_array_written_and_read():
    u, c = device64(np.ones(3)), device64(np.ones(3))
    compiled(axpy_).device(u, device64(np.ones(3)), c)  # leaves a plan for three jax.Arrays
    with pytest.raises(np2ref.Np2RefError, match="share memory"):
        compiled(axpy_).device(u, u, c)  # NumPy's `a += a * c` reads what it writes
    v = np.ones(3)
    with pytest.raises(np2ref.Np2RefError, match="share memory"):
        compiled(axpy_)(v, v[::-1], 1.0)  # the plan's path checks it too
    assert np.array_equal(v, np.ones(3))


def test_plans_are_keyed_by_dtype_shape_and_static_values():
    c = compiled(tiled)
    cases = [(np.arange(3.0), 2), (np.arange(3.0), 3), (np.arange(3, dtype=np.float32), 2),
             (np.arange(3), 2), (np.arange(4.0), 2), (np.arange(3.0), 2), (np.array([True, False]), 2)]
    for a, n in cases:
        got, want = c(a, n), tiled(a, n)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
    s = compiled(scaled)
    for a in (np.arange(3.0), np.arange(3, dtype=np.int32), np.arange(3, dtype=np.float32)):
        for k in (2.0, 2, True):
            got, want = s(a, k), scaled(a, k)
            assert got.dtype == want.dtype and np.array_equal(got, want), (a.dtype, k)


def colsum_plus(m, v):
    return m.sum(axis=0) + v, m


def test_large_unaligned_inputs_are_staged_exactly():
    """A large read-only argument at NumPy's 16-byte alignment is copied into np2ref's own
    aligned buffer, kept between calls: every call must see its own values, results must not
    alias that buffer, and the caller's array comes back as itself, unchanged."""
    c = compiled(colsum_plus)
    rng = np.random.default_rng(3)
    raw = np.empty(120 * 100 * 8 + 64, np.uint8)
    start = (16 - raw.ctypes.data) % 64
    m = raw[start:start + 120 * 100 * 8].view(np.float64).reshape(120, 100)  # 96 KB, unaligned
    m[...] = rng.random((120, 100))
    v = rng.random(100)
    results = []
    for k in range(3):
        m += 1.0  # new values each call: the staged copy must follow
        want = m.sum(axis=0) + v
        got, same = c(m, v)
        assert same is m and np.allclose(got, want, rtol=1e-13) and got.flags.writeable
        results.append((got, got.copy()))
    for got, kept in results:  # no result shares the staging buffer reused by later calls
        assert np.array_equal(got, kept)
    entry = c._entry
    plan = next(p for p in entry._plans.values() if p.staging is not None)
    assert plan.staging.buffers and all(not np.shares_memory(b, g) for b in plan.staging.buffers.values()
                                        for g, _ in results)
    small = c(m[:10], v)[0]  # another shape: another plan or buffer, still exact
    assert np.allclose(small, m[:10].sum(axis=0) + v, rtol=1e-13)


def test_staged_calls_from_threads_stay_exact():
    import concurrent.futures

    c = compiled(colsum_plus)
    rng = np.random.default_rng(4)
    mats = [rng.random((150, 100)) + k for k in range(8)]
    v = np.zeros(100)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda m: c(m, v)[0], mats * 3))
    for m, got in zip(mats * 3, outs):
        assert np.allclose(got, m.sum(axis=0), rtol=1e-13)



def five_results(a):
    b = a * 2.0
    return a + 1.0, a.astype(np.float64), b, b.copy(), np.zeros(a.shape)  # astype: NumPy copies


def bump_then_new(a, b):
    a += 1.0
    return b * 2.0


def test_large_results_without_a_copy_stay_numpy_results():
    """A result of 64 KiB or more is handed out as a writable view of XLA's own output buffer
    (no copy): it must still be a result of its own, as NumPy's are: writable, sharing memory
    with no argument (aligned ones reach XLA without a copy, unaligned ones through the reused
    staging buffer), with no other result of the call or of another call (a constant's
    included); writing into it changes nothing else."""
    rng = np.random.default_rng(5)
    several, bump = np2ref.compile(five_results, host_below=0), np2ref.compile(bump_then_new, host_below=0)
    x = rng.random((100, 100))  # 80 KB
    want = five_results(x.copy())
    for arg in (x, np2ref.aligned(x)):
        first, second = several(arg), several(arg)
        assert not first[0].flags.owndata  # XLA's buffer, not a copy: what this test is about
        for got in (first, second):
            for r, w in zip(got, want):
                assert np.array_equal(r, w) and r.flags.writeable and not np.shares_memory(r, arg)
        results = list(first) + list(second)
        assert not any(np.shares_memory(r, s) for r in results for s in results if r is not s)
        for r in first:
            r[...] = -1.0  # changes that result only: not the argument, not a later call's
        assert np.array_equal(arg, x) and all(np.array_equal(r, w) for r, w in zip(second, want))
        assert all(np.array_equal(r, w) for r, w in zip(several(arg), want))
    a = x.copy()
    new = bump(a, x)  # a written argument's donated copy is not the result
    assert np.array_equal(a, x + 1.0) and np.array_equal(new, x * 2.0) and not np.shares_memory(new, a)
