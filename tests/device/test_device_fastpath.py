"""The jax.Array call's flat jitted run (np2ref/rt/fastpath.py) against the general path it
replaces, and against NumPy: the same values bit for bit, dtypes, result structure, bounds
errors, write semantics (`.device` finals, the caller's jax.Arrays untouched), and the refusal
of a trace whose result shape differs. Behaviour only: no timing (benchmarks/suite.py)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from np2ref.rt import calls as rt_calls

from conftest import load_module


def poly(x):
    return 3.0 * x ** 3 - 2.0 * x + 1.0


def stats(x):
    return x.sum(), x.shape[0], x  # an array, a Python int, the argument itself


def axpy_(y, a, x):
    y += a * x


def norm(x, y):
    return np.sqrt(np.dot(x - y, x - y))


def bump_twice(a, b):
    a += b
    c = a * 2.0
    return c, c


def pick(a, i):
    return a[i] * 2.0


def scaled(a, s=2.0):
    return a * s


def shift(a, way):
    return a + 1.0 if way == "up" else a - 1.0


def device64(x):
    with jax.enable_x64(True):
        return jax.device_put(np.asarray(x))


def general(fn):
    """np2ref.compile(fn) with the flat runs off: every call takes the general path."""
    c = np2ref.compile(fn)
    c._fast = {}
    return c


@pytest.fixture
def no_flat(monkeypatch):
    monkeypatch.setattr(rt_calls, "_npr_flat_plan", lambda *args: False)


def same(a, b):
    """Equal bit for bit, dtype and type included (a jax.Array against a jax.Array, a NumPy
    array or scalar against one of the same type)."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (np.ndarray, np.generic)):
        return type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if not isinstance(a, jax.Array):
        return type(a) is type(b) and a == b
    return isinstance(b, jax.Array) and a.dtype == b.dtype and a.shape == b.shape and \
        np.asarray(a).tobytes() == np.asarray(b).tobytes()


CASES = [
    (poly, lambda rng: (rng.random(10),)),
    (poly, lambda rng: (rng.random(1000).astype(np.float32),)),
    (norm, lambda rng: (rng.random(100), rng.random(100))),
    (stats, lambda rng: (rng.integers(-5, 5, 7).astype(np.int32),)),
    (scaled, lambda rng: (rng.random(4), 0.5)),
]


def run_cases(fn, make):
    rng = np.random.default_rng(3)
    host = make(rng)
    args = [device64(a) if isinstance(a, np.ndarray) else a for a in host]
    c = np2ref.compile(fn)
    return host, args, [c(*args) for _ in range(3)]  # the first call binds, the next take the flat run


@pytest.mark.parametrize("fn,make", CASES, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(CASES)])
def test_flat_run_equals_the_general_path_and_numpy(fn, make, no_flat, monkeypatch):
    host, args, slow = run_cases(fn, make)
    monkeypatch.undo()  # the flat runs on again
    _, args, fast = run_cases(fn, make)
    want = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in host])
    for got_slow, got_fast in zip(slow, fast):
        assert same(got_slow, got_fast)
        for g, w in zip(got_fast if isinstance(want, tuple) else (got_fast,),
                        want if isinstance(want, tuple) else (want,)):
            if any(g is a for a in args):
                continue  # the caller's own jax.Array (stats returns x): below
            if isinstance(w, (np.generic, np.ndarray)):  # NumPy's type, as the NumPy program returns it
                assert type(g) is type(w) and g.dtype == w.dtype and \
                    np.allclose(g, w, rtol=1e-6 if w.dtype == np.float32 else 1e-14, atol=0)
            else:
                assert type(g) is int and g == w  # x.shape[0]: a Python int, as NumPy returns it
    if fn is stats:
        assert all(r[2] is args[0] for r in fast)  # the argument returned is the caller's own


def test_flat_run_is_taken_and_keeps_the_callers_arrays():
    c = np2ref.compile(poly)
    x0 = np.linspace(-1.0, 1.0, 9)
    x = device64(x0)
    first, second = c(x), c(x)
    assert len(c._entry._fast) == 1 and all(p.flat is not None for p in c._entry._plans.values())
    assert same(first, second) and type(second) is np.ndarray and np.array_equal(np.asarray(x), x0)
    assert isinstance(c(x0), np.ndarray)  # NumPy in: NumPy out, through the general path


def test_device_flat_run_gives_finals_and_changes_nothing():
    rng = np.random.default_rng(4)
    y0, x0 = rng.random(50), rng.random(50)
    step, slow = np2ref.compile(axpy_), general(axpy_)
    y, x = device64(y0), device64(x0)
    expected, ys, ys_slow = y0.copy(), y, y
    for _ in range(3):
        result, finals = step.device(ys, 0.5, x)
        result_slow, finals_slow = slow.device(ys_slow, 0.5, x)
        axpy_(expected, 0.5, x0)
        assert result is None and result_slow is None and list(finals) == ["y"]
        assert same(finals["y"], finals_slow["y"])
        ys, ys_slow = finals["y"], finals_slow["y"]
    assert len(step._entry._device_fast) == 1
    assert np.allclose(np.asarray(ys), expected, rtol=1e-15, atol=0)
    assert np.array_equal(np.asarray(y), y0) and np.array_equal(np.asarray(x), x0)  # never changed
    bump = np2ref.compile(bump_twice)
    bump.device(y, x)
    result, finals = bump.device(y, x)
    assert bump._entry._device_fast and isinstance(result, tuple)
    assert result[0] is result[1]  # one value returned twice: one object, as in NumPy
    assert np.array_equal(np.asarray(finals["a"]), y0 + x0) and np.array_equal(np.asarray(y), y0)


def test_written_array_passed_twice_leaves_the_flat_run():
    step = np2ref.compile(axpy_)
    y, x = device64(np.ones(3)), device64(np.ones(3))
    step.device(y, 0.5, x)
    step.device(y, 0.5, x)  # the flat run, admitted
    with pytest.raises(np2ref.Np2RefError, match="share memory"):
        step.device(y, 0.5, y)  # NumPy's `y += a * y` reads what it writes: refused, as before
    assert np.array_equal(np.asarray(y), np.ones(3))


def test_bounds_errors_on_the_flat_run():
    c = np2ref.compile(pick)
    a = device64(np.arange(5.0))
    with jax.enable_x64(True):
        good, bad, neg = (jax.device_put(np.int64(k)) for k in (2, 7, -6))
    assert same(c(a, good), general(pick)(a, good))
    for _ in range(2):  # the flat run checks the program's bounds record on every call
        with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
            c(a, bad)
        with pytest.raises(IndexError, match="out of bounds"):
            c(a, neg)
    assert np.asarray(c(a, good)) == 4.0
    assert c._entry._fast  # still the flat run


def test_a_result_shape_that_changes_with_the_arguments_takes_the_general_path():
    c = np2ref.compile(stats)
    a3, a4 = device64(np.arange(3.0)), device64(np.arange(4.0))
    assert c(a3)[1] == 3 and c(a3)[1] == 3
    total, n, same_a = c(a4)  # a new trace whose Python int differs: refused, then the general path
    assert n == 4 and type(n) is int and same_a is a4 and np.asarray(total) == 6.0
    assert not c._entry._fast and all(p.flat is None for p in c._entry._plans.values())
    assert c(a3)[1] == 3 and c(a4)[1] == 4


def test_module_value_changed_between_flat_calls(tmp_path):
    module = load_module("""
import numpy as np
SCALE = 2.0
def f(a):
    return a * SCALE
""", tmp_path)
    c = np2ref.compile(module.f)
    a = device64(np.arange(3.0))
    assert np.array_equal(np.asarray(c(a)), [0.0, 2.0, 4.0]) and c._entry._fast
    module.SCALE = 3.0
    assert np.array_equal(np.asarray(c(a)), [0.0, 3.0, 6.0])
    assert np.array_equal(np.asarray(c(a)), [0.0, 3.0, 6.0])


def test_keywords_defaults_and_x64_on_the_plan_path():
    c = np2ref.compile(scaled)
    a = device64(np.arange(4.0))
    for outside in (False, True):
        with jax.enable_x64(outside):
            for _ in range(2):
                assert same(c(a), c(a, s=2.0)) and c(a).dtype == np.float64
                assert jax.config.jax_enable_x64 is outside
                result, finals = c.device(a, 3.0)
                assert finals == {} and np.array_equal(np.asarray(result), np.arange(4.0) * 3.0)
    with jax.enable_x64(True):
        a32 = jax.device_put(np.arange(4.0, dtype=np.float32))
    assert c(a32).dtype == np.float32 and c(a32, 0.5).dtype == np.float32  # NumPy: float32 * float


def axpy_into(y, a, x):
    y[:] += a * x


def test_written_jax_array_on_the_numpy_call_is_numpys():
    c, into = np2ref.compile(axpy_), np2ref.compile(axpy_into)
    y, x = device64(np.ones(3)), device64(np.ones(3))
    c.device(y, 0.5, x)
    into.device(y, 0.5, x)
    for _ in range(2):  # `y += a * x` on a jax.Array rebinds y in NumPy code: the caller's unchanged
        assert c(y, 0.5, x) is None and np.array_equal(np.asarray(y), np.ones(3))
    with pytest.raises(TypeError, match="jax.Array"):
        into(y, 0.5, x)  # `y[:] += ...` raises in NumPy code (JAX arrays are immutable): refused, not dropped
    u = np.ones(3)
    assert c(u, 0.5, x) is None and np.array_equal(u, np.full(3, 1.5))  # NumPy written back


def test_numpy_call_that_writes_nothing_takes_the_flat_run_with_numpy_semantics(no_flat, monkeypatch):
    rng = np.random.default_rng(5)
    x, big = rng.random(7).astype(np.int32), rng.random((300, 300))

    def calls():
        kernels = np2ref.compile(stats, host_below=0), np2ref.compile(poly, host_below=0)
        return kernels, [[kernels[0](x) for _ in range(2)], [kernels[1](big) for _ in range(2)]]
    _, want = calls()
    monkeypatch.undo()  # the flat runs on again
    fast, got = calls()
    assert all(p.flat is not None for c in fast for p in c._entry._plans.values())
    for (total, n, same_x), (total_slow, n_slow, _) in zip(got[0], want[0]):
        assert type(total) is type(total_slow) and total == total_slow and total.dtype == x.sum().dtype
        assert type(n) is int and n == 7 and same_x is x  # the caller's own array, as NumPy returns it
    for r, r_slow in zip(got[1], want[1]):
        assert type(r) is np.ndarray and r.tobytes() == r_slow.tobytes() and r.flags.writeable
        assert not r.flags.owndata  # 720 KB: XLA's own buffer handed out, not copied (buffers.py)
    assert not np.shares_memory(got[1][0], got[1][1]) and not np.shares_memory(got[1][0], big)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 5"):
        np2ref.compile(pick, host_below=0)(np.arange(5.0), np.int64(9))
    c = np2ref.compile(pick, host_below=0)
    assert c(np.arange(5.0), np.int64(2)) == 4.0
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 5"):
        c(np.arange(5.0), np.int64(9))  # the plan's flat run checks the bounds record too


def test_static_arguments_are_not_passed_to_the_flat_run():
    """A static argument (a str here; a Generator in the corpus) is the plan's, not an argument
    of the jitted function: the flat run takes the traced ones only, by position."""
    c = np2ref.compile(shift, host_below=0)
    x = np.arange(3.0)
    for _ in range(2):
        assert np.array_equal(np.asarray(c(device64(x), "up")), x + 1.0)
        assert np.array_equal(c(x, "down"), x - 1.0)
    assert all(p.flat is not None for p in c._entry._plans.values())
    d = np2ref.compile(scaled)
    a = device64(x)
    for _ in range(2):  # the default filled in: the plan's path, never the type-keyed one
        assert np.array_equal(np.asarray(d(a)), x * 2.0) and np.array_equal(np.asarray(d(a, 0.5)), x * 0.5)
    assert (type(a),) not in d._entry._fast and all(p.flat is not None for p in d._entry._plans.values())
