"""The jitted call with NumPy arrays through its straight-line Python (np2ref/rt/numpycall.py)
against the general path it replaces and against NumPy: the same values bit for bit, dtypes,
result types and structure, arrays written back (read-only ones refused as NumPy refuses them),
arguments that share memory, dtypes JAX does not take as they are, bounds errors, and routes
chosen per signature. Behaviour only: no timing (benchmarks/overhead.py)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from np2ref.rt import calls as rt_calls


def axpy_(y, a, x):
    y += a * x


def poly(x):
    return 3.0 * x ** 3 - 2.0 * x + 1.0


def moments(x):
    return x.sum(), (x * x).mean(), x.max() - x.min()  # three 0-d results: NumPy scalars


def split_(u, v):
    u *= 2.0
    v -= u
    return u + v, np.cumsum(v)


def gather(a, idx):
    return a[idx] * 2.0


def grow(a):
    return np.concatenate([a, a * a])  # large for large `a`: handed out over XLA's buffer


def jitted(fn):
    return np2ref.compile(fn, host_below=0)


def same(a, b):
    """Equal bit for bit, dtype and type included; tuples element by element."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is b
    return type(a) is type(b) and np.asarray(a).dtype == np.asarray(b).dtype and \
        np.asarray(a).shape == np.asarray(b).shape and np.asarray(a).tobytes() == np.asarray(b).tobytes()


def close(got, want):
    """NumPy's answer to the last ulps (XLA may contract a * b + c), types and dtypes exact."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(close(g, w) for g, w in zip(got, want))
    if want is None:
        return got is None
    tol = 1e-6 if np.asarray(want).dtype == np.float32 else 1e-13
    return type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype and \
        np.allclose(got, want, rtol=tol, atol=tol)


CASES = [
    (axpy_, lambda rng: (rng.random(50), 0.5, rng.random(50))),
    (poly, lambda rng: (rng.random(1000).astype(np.float32),)),
    (moments, lambda rng: (rng.random(30),)),
    (split_, lambda rng: (rng.random(20), rng.random(20))),
    (gather, lambda rng: (rng.random(8), rng.integers(0, 8, 5))),
    (grow, lambda rng: (rng.random(20_000),)),
]


def calls(fn, make, compiled):
    """Three calls of `compiled` on fresh copies of one draw: (results, final arguments)."""
    host = make(np.random.default_rng(7))
    out = []
    for _ in range(3):
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in host]
        out.append((compiled(*args), args))
    return host, out


@pytest.mark.parametrize("fn,make", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_straight_line_call_equals_the_general_path_and_numpy(fn, make, monkeypatch):
    monkeypatch.setattr(rt_calls, "_npr_flat_plan", lambda *args: False)
    host, slow = calls(fn, make, jitted(fn))
    monkeypatch.undo()
    c = jitted(fn)
    _, fast = calls(fn, make, c)
    assert fn.__name__ in {"gather"} or c._entry._numpy_fast, "the straight-line call was not made"
    want_args = [a.copy() if isinstance(a, np.ndarray) else a for a in host]
    want = fn(*want_args)
    for (got_slow, args_slow), (got_fast, args_fast) in zip(slow, fast):
        assert same(got_slow, got_fast)
        assert all(same(a, b) for a, b in zip(args_slow, args_fast))
        assert close(got_fast, want)
        assert all(close(a, w) for a, w in zip(args_fast, want_args))
    if fn is grow:
        assert fast[-1][0].flags.writeable  # a large result is the caller's to write


def test_the_call_is_taken_and_made_inline_once_traced():
    c = jitted(axpy_)
    rng = np.random.default_rng(1)
    y, x = rng.random(40), rng.random(40)
    want = y.copy()
    for _ in range(4):
        assert c(y, 0.25, x) is None
        axpy_(want, 0.25, x)
    assert np.allclose(y, want, rtol=1e-14, atol=0)
    (call,) = c._entry._numpy_fast.values()
    assert c._host_fast is call and call.__globals__["LIVE"]  # the inline version, first in __call__
    assert "UPGRADE" not in call.__code__.co_names and "copyto" in call.__code__.co_names  # written inline


def test_read_only_written_array_raises_and_is_unchanged():
    c = jitted(axpy_)
    rng = np.random.default_rng(2)
    x = rng.random(16)
    for _ in range(3):
        c(rng.random(16), 1.0, x)  # the straight-line call exists
    y = rng.random(16)
    y0 = y.copy()
    y.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        c(y, 1.0, x)
    assert np.array_equal(y, y0)
    c(y, 0.0, x)  # nothing changes: as the general path, no copy and no error


def test_arguments_sharing_memory_take_the_general_path():
    c = jitted(axpy_)
    rng = np.random.default_rng(3)
    for _ in range(3):
        c(rng.random(10), 2.0, rng.random(10))
    y = rng.random(10)
    with pytest.raises(np2ref.Np2RefError, match="share memory"):
        c(y, 2.0, y[::-1])
    with pytest.raises(np2ref.Np2RefError, match="share memory"):
        c(y, 2.0, y)  # one array passed twice, written through one name: refused as before
    assert c(y, 2.0, y.copy()) is None  # and the straight-line call still runs


def test_dtypes_jax_does_not_take_as_they_are_take_the_general_path():
    c = jitted(poly)
    x = np.linspace(-1.0, 1.0, 12)
    for _ in range(3):
        c(x)
    swapped = x.astype(">f8")
    assert close(c(swapped), poly(swapped))
    assert close(c(x.astype(np.int16)), poly(x.astype(np.int16)))


def test_bounds_errors_on_the_straight_line_call():
    c = jitted(gather)
    a = np.arange(6.0)
    for _ in range(3):
        assert np.array_equal(c(a, np.array([0, 5, -6])), gather(a, np.array([0, 5, -6])))
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        c(a, np.array([1, 6]))


def test_jit_route_chosen_per_signature_uses_the_call_behind_the_signature():
    c = np2ref.compile(poly, host_below=1000)  # (the suite's default is 0: always jitted)
    c._host_route = lambda key, args: len(args[0]) != 8  # 8 elements: jitted; others: NumPy
    small, large = np.linspace(0.0, 1.0, 8), np.linspace(0.0, 1.0, 9)
    for x in (small, small, small, large, small, large.astype(np.float32), small):
        assert close(c(x), poly(x))
    jit = [f for f in c._host_fasts.values() if hasattr(f, "inner")]  # the straight-line calls made
    assert len(jit) == 1 and jit[0].inner in c._entry._numpy_fast.values()
    assert len(c._host_fasts) == 3  # and the host route's, for the two signatures NumPy runs


def constant():
    return np.arange(4.0) * 2.0


def test_a_function_of_no_arguments():
    c = jitted(constant)
    for _ in range(3):
        assert close(c(), constant())
