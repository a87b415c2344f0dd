"""np2ref.compile's host route: a small loop-free program called with NumPy arrays runs the
original NumPy function, and on a CPU so does any program NumPy is estimated to run no slower
than the jitted call (np2ref/compiled/routes.py). The rest of the suite runs with
NP2REF_HOST_BELOW=0, conftest.py, so its differential tests exercise the jitted program; each
test here names host_below itself."""

from __future__ import annotations

import warnings

import jax
import numpy as np
import pytest

import np2ref
from np2ref.compiled.choice import HOST, JIT
from np2ref.compiled.compile import HOST_BELOW, HOST_ENV
from test_route_choice import Timed


def recip(x):
    return 1.0 / x


def recip_plus(x):
    return (1.0 / x + 1.0) * 2.0 - x


def matvec(a, x):
    return a @ x


def axpy_(y, a, x):
    y += a * x


def flat_bump_(y):
    y.reshape(-1)[:] += 1.0


def looped(x):
    t = 0.0
    for i in range(x.shape[0]):
        t += x[i]
    return x + t


def first_above(x, t):
    k = -1
    for i in range(x.shape[0]):
        if x[i] > t:
            k = i
            break
    return k


def matmul_sums(a, b):
    return a @ b + 1.0


def branchy(x):
    if x.sum() > 0:
        return x
    x.sum()  # this path returns None: the `if` stays Python's (NPR030 when traced)


def hosted(fn, **options):
    """A compiled function whose host route is on (host_below given: the suite's default is 0)."""
    return np2ref.compile(fn, **{"host_below": 1000, **options})


@pytest.fixture(scope="module")
def compiled_recip():
    return hosted(recip_plus)


def test_small_call_runs_the_original_and_a_large_one_the_translation(compiled_recip):
    # NumPy's divide-by-zero warning comes from the original only: the jitted program is silent
    small = np.array([0.0, 2.0, 4.0])
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        out = compiled_recip(small)
    np.testing.assert_array_equal(out, [np.inf, 1.0, -1.5])
    # 8 MB: four NumPy passes with temporaries are estimated to cost more than the jitted call's
    # one fused pass and its staging copy (routes.py), so the translation is timed first
    large = np.zeros(1_000_000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled_recip(large)
    assert np.isinf(got).all() and type(got) is np.ndarray and got.flags.writeable
    assert compiled_recip.route(small) == HOST and compiled_recip.route(large) == "measuring"
    assert len(compiled_recip._choices) == 2  # one decision per signature, kept


def test_on_a_cpu_matrix_products_take_numpys_blas():
    # XLA:CPU's dot is 2-3x slower than NumPy's BLAS on a matrix-vector product, and the
    # 8 MB matrix would be copied in: NumPy is tried first, whatever its size
    compiled = hosted(matvec)
    a, x = np.random.default_rng(0).random((1000, 1000)), np.ones(1000)
    np.testing.assert_array_equal(compiled(a, x), a @ x)  # NumPy's BLAS itself, bit for bit
    assert compiled._choices[next(iter(compiled._choices))].first == HOST
    assert np2ref.compile(matvec, host_below=0)._hosted is None  # host_below=0: always the translation


def test_route_is_per_signature_and_deterministic(compiled_recip):
    before = dict(compiled_recip._hosted)
    for _ in range(3):
        with pytest.warns(RuntimeWarning):
            compiled_recip(np.array([0.0, 1.0, 2.0]))
    assert compiled_recip._hosted == before  # the same signature: no new decision, the same route
    with pytest.warns(RuntimeWarning):
        compiled_recip(np.zeros(5, np.float32))  # another dtype: its own decision
    assert len(compiled_recip._hosted) == len(before) + 1


def test_alternating_signatures_take_their_own_routes():
    # the call remembers its last signature (compile.py, Compiled._last): a call with another
    # one must not take the last one's route
    compiled = hosted(recip_plus)
    small, large = np.array([0.0, 4.0]), np.zeros(1_000_000)
    Timed(compiled, host=1.0, jit=1e-3)  # the large signature's NumPy calls are timed far slower
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(3):
            compiled(large)
    assert compiled.route(large) == JIT
    for _ in range(2):
        with pytest.warns(RuntimeWarning, match="divide by zero"):  # NumPy's warning: the original ran
            np.testing.assert_array_equal(compiled(small), [np.inf, -1.5])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the jitted program is silent
            assert np.isinf(compiled(large)).all()
            assert np.isinf(compiled(np.zeros(1_000_000))).all()  # the same signature again


def test_host_route_writes_in_place_as_numpy_does():
    compiled = hosted(axpy_)
    base = np.arange(12.0)
    y, expected = base[2:8], np.arange(12.0)
    x = np.linspace(0.0, 1.0, 6)
    axpy_(expected[2:8], 0.5, x)
    assert compiled(y, 0.5, x) is None
    np.testing.assert_array_equal(base, expected)  # through the view, into the caller's buffer
    assert any(r is not False for r in compiled._hosted.values())
    readonly = np.ones(6)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):  # NumPy's error, even for a no-op write
        compiled(readonly, 0.0, x)


def test_host_route_straight_line_call_takes_views_apart_and_not_overlapping_ones():
    compiled = hosted(axpy_)
    base = np.arange(20.0)
    expected = base.copy()
    for _ in range(3):  # two views of one buffer, apart: NumPy runs, through the straight-line call
        assert compiled(base[:8], 0.5, base[10:18]) is None
        axpy_(expected[:8], 0.5, expected[10:18])
    np.testing.assert_array_equal(base, expected)
    assert compiled._host_fast((base[:8], 0.5, base[10:18])) is None  # taken, not MISS
    axpy_(expected[:8], 0.5, expected[10:18])
    with pytest.raises(np2ref.Np2RefError, match="share memory"):
        compiled(base[:8], 0.5, base[4:12])
    np.testing.assert_array_equal(base, expected)


def test_host_route_call_is_the_objects_own_and_any_other_call_goes_the_general_way():
    compiled = hosted(axpy_)
    owners = np.zeros(30), np.linspace(0.0, 1.0, 30)  # views of two arrays that own their memory
    y, x = owners[0][5:15], owners[1][:20:2]
    expected = owners[0].copy()
    for _ in range(2):
        assert compiled(y, 0.5, x) is None
        axpy_(expected[5:15], 0.5, x)
    assert type(compiled).__call__ is compiled._host_fast.method  # hostcall.py's, for this signature
    assert isinstance(compiled, np2ref.Compiled) and type(np2ref.compile(axpy_)) is not type(compiled)
    assert compiled(y, 0.5, x=x) is None and compiled(y, a=0.5, x=x) is None  # keywords: the general path
    axpy_(expected[5:15], 0.5, x)
    axpy_(expected[5:15], 0.5, x)
    np.testing.assert_array_equal(owners[0], expected)
    with pytest.raises(TypeError):  # Python's own error for a call the function cannot take
        compiled(y, 0.5)
    with pytest.raises(np2ref.Np2RefError, match="share memory"):  # one owner, overlapping: refused
        compiled(owners[0][:10], 0.5, owners[0][5:15])
    np.testing.assert_array_equal(owners[0], expected)


def test_host_route_refuses_what_the_jitted_call_refuses():
    a = np.arange(6.0)
    for compiled in (hosted(axpy_), np2ref.compile(axpy_, host_below=0)):
        compiled(np.zeros(6), 1.0, np.ones(6))  # the route is decided on a call without sharing
        with pytest.raises(np2ref.Np2RefError, match="NPR206"):
            compiled(a, 1.0, a[::-1])
        np.testing.assert_array_equal(a, np.arange(6.0))
    for compiled in (hosted(branchy), np2ref.compile(branchy, host_below=0)):
        with pytest.raises(np2ref.Np2RefError, match="NPR030"):
            compiled(np.ones(3))
    compiled = hosted(flat_bump_)
    y = np.zeros((2, 3))
    compiled(y)
    np.testing.assert_array_equal(y, np.ones((2, 3)))
    with pytest.raises(np2ref.Np2RefError, match="C-contiguous"):
        compiled(np.zeros((3, 2)).T)  # the same shape and dtype, not C-contiguous: refused as jitted


def test_a_loop_whose_trips_are_data_is_always_jitted():
    # its cost is unknown before it runs (a `break` makes a while loop): never estimated cheaper
    compiled = hosted(first_above)
    assert compiled(np.arange(8.0), 2.5) == 3
    assert list(compiled._hosted.values()) == [False]


def test_cost_estimates_follow_the_work():
    from np2ref.compiled import routes
    jaxpr = lambda fn, *a: np2ref.compile(fn, host_below=0)._entry.trace_numpy(*a).jaxpr  # noqa: E731
    small, large = np.ones(1000), np.ones(1_000_000)
    numpy_small, jit_small = routes.estimate(jaxpr(recip_plus, small), [small], [])
    numpy_large, jit_large = routes.estimate(jaxpr(recip_plus, large), [large], [])
    assert numpy_small < jit_small and numpy_large > jit_large  # the jitted call's fixed cost, then fusion
    a = np.ones((500, 500))
    numpy_dot, jit_dot = routes.estimate(jaxpr(matvec, a, np.ones(500)), [a, np.ones(500)], [])
    assert numpy_dot < jit_dot
    numpy_loop, jit_loop = routes.estimate(jaxpr(looped, np.ones(4000)), [np.ones(4000)], [])
    assert numpy_loop > 4000 * routes.NUMPY_TRIP and jit_loop < numpy_loop


def test_products_are_estimated_as_each_route_computes_them():
    # a matrix product: XLA:CPU reads operands slower than NumPy's BLAS, multiplies faster (the
    # window products of a convolution: tests/rt/test_window_dots.py)
    from np2ref.compiled import routes
    a = np.random.default_rng(0).random((400, 400))
    numpy_mm, jit_mm = routes.estimate(np2ref.compile(matmul_sums)._traced_for_route((a, a))[0], (a, a), [])
    numpy_mv, jit_mv = routes.estimate(np2ref.compile(matvec)._traced_for_route((a, a[0]))[0], (a, a[0]), [])
    assert jit_mm - routes.JIT_CALL < numpy_mm and jit_mv - routes.JIT_CALL > numpy_mv
    # a product whose result is over 32 MiB: a buffer mapped afresh on every jitted call (2x)
    wide = np.ones((600, 32)), np.ones((32, 16384))
    _, jit_wide = routes.estimate(np2ref.compile(matmul_sums)._traced_for_route(wide)[0], wide, [])
    narrow = np.ones((600, 32)), np.ones((32, 4096))
    _, jit_narrow = routes.estimate(np2ref.compile(matmul_sums)._traced_for_route(narrow)[0], narrow, [])
    assert jit_wide - routes.JIT_CALL > 6 * (jit_narrow - routes.JIT_CALL)


def test_long_loops_and_other_options_take_the_jitted_program():
    compiled = hosted(looped)
    timed = Timed(compiled, host=1e-3, jit=1e-3)
    x = np.arange(4000.0)  # 4000 trips of Python against one lax loop: the translation first
    np.testing.assert_array_equal(compiled(x), looped(x))
    assert timed.host_calls == 0 and compiled.route(x) == "measuring"
    compiled(np.arange(4.0))  # 4 trips: NumPy's loop is estimated cheaper than the jitted call
    assert timed.host_calls == 1
    assert hosted(recip, dtype_policy="float32")._hosted is None
    assert hosted(recip, bounds="unchecked")._hosted is None
    assert np2ref.compile(recip, host_below=0)._hosted is None


def test_jax_arrays_device_and_pure_never_take_the_host_route(compiled_recip):
    with jax.enable_x64(True):
        x = jax.numpy.asarray(np.array([0.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = compiled_recip(x)
        assert type(out) is np.ndarray  # the jitted translation's, as NumPy's program returns it
        result, finals = compiled_recip.device(np.array([0.0, 2.0]))
        assert isinstance(result, jax.Array) and finals == {}
        with jax.enable_x64(True):
            result, _ = jax.jit(compiled_recip.pure)(np.array([0.0, 2.0]))
    assert np.isinf(np.asarray(out)[0])


def test_verify_checks_the_translation_before_the_host_route():
    compiled = hosted(recip, verify=True)
    assert compiled._hosted is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled(np.array([1.0, 2.0]))
    assert compiled._verified and compiled._hosted == {}
    with pytest.warns(RuntimeWarning):  # verified: later small calls take the host route
        compiled(np.array([0.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(compiled.call_jit(np.array([0.0, 2.0])), [np.inf, 0.5])


def test_host_below_option_and_environment(monkeypatch):
    monkeypatch.delenv(HOST_ENV)
    assert np2ref.compile(recip).host_below == HOST_BELOW
    monkeypatch.setenv(HOST_ENV, "64")
    assert np2ref.compile(recip).host_below == 64
    assert np2ref.compile(recip, host_below=7).host_below == 7
    monkeypatch.setenv(HOST_ENV, "many")
    with pytest.raises(ValueError, match="host_below"):
        np2ref.compile(recip)
    with pytest.raises(ValueError, match="host_below"):
        np2ref.compile(recip, host_below=-1)


def running_sum_(y):
    for i in range(1, y.shape[0]):
        y[i] += y[i - 1]


@pytest.mark.parametrize("fn, args", [(looped, (np.arange(4000.0),)), (running_sum_, (np.arange(4000.0),))],
                         ids=["result", "written"])
def test_a_call_routed_to_the_jitted_program_traces_it_once(monkeypatch, fn, args):
    # the route is decided on the traced program; the jitted call (its flat run, rt/fastpath.py)
    # reuses that trace instead of tracing the function a second time
    from np2ref.rt import jit
    traces = []
    fenced = jit._npr_fenced
    monkeypatch.setattr(jit, "_npr_fenced", lambda thunk: traces.append(1) or fenced(thunk))
    compiled = hosted(fn)
    Timed(compiled, host=1.0, jit=1e-3)  # measured: the translation first, then NumPy once, far slower
    want_args, got_args = [a.copy() for a in args], [a.copy() for a in args]
    want, got = fn(*want_args), compiled(*got_args)
    assert compiled.route(*args) == "measuring" and len(traces) == 1
    for _ in range(2):
        compiled(*[a.copy() for a in args])
    assert compiled.route(*args) == JIT
    assert (want is None) == (got is None)
    if want is not None:
        np.testing.assert_array_equal(got, want)
        assert type(got) is type(want) and got.dtype == want.dtype
    for w, g in zip(want_args, got_args):
        np.testing.assert_array_equal(g, w)
    # the next call: the straight-line run of the same compiled program, no trace
    again = [a.copy() for a in args]
    out = compiled(*again)
    assert len(traces) == 1
    if want is not None:
        np.testing.assert_array_equal(out, want)
    for w, g in zip(want_args, again):
        np.testing.assert_array_equal(g, w)
