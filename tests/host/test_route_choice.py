"""np2ref.compile's route decision (compiled/choice.py): where the cost model is not sure, a
signature's first calls time both routes and the faster is kept; a route estimated far slower is
not tried; off the CPU the transfers count; jax.Arrays never take the host route; explain() says
which route and why. Timings are injected (a fake clock), never measured: these tests decide
on made-up times and check the calls, results and written arguments of both routes."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from np2ref.compiled import choice, routes
from np2ref.compiled.choice import DECISIVE, HOST, JIT, SKIP, Choice, choose


def trisolv_(L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x.sum()


def chain(x):
    return np.sqrt(np.abs((1.0 / (x + 2.0) + 1.0) * 2.0 - x)) + np.sin(x) * np.cos(x)


def total(x):
    return (x * 2.0).sum()


def _inputs(n=48, seed=0):
    rng = np.random.default_rng(seed)
    return np.tril(rng.random((n, n))) + n * np.eye(n), np.zeros(n), rng.random(n)


class Timed:
    """A compiled function's clock and host route, faked: a measured call of the host route
    takes `host` seconds, the jitted route's first `compile`, its others `jit`; the original
    NumPy function is counted (it still runs: the results are real)."""

    def __init__(self, compiled, host, jit, compile=5.0):
        self.host, self.jit, self.compile = host, jit, compile
        self.now, self.reads, self.host_calls, self.jit_timed, self._host_ran = 0.0, 0, 0, 0, False
        original = compiled.original

        def counted(*args):
            self.host_calls += 1
            self._host_ran = True
            return original(*args)
        compiled.original, compiled._clock = counted, self

    def __call__(self):
        self.reads += 1
        if self.reads % 2:  # the read before a measured call: host calls not measured are not its
            self._host_ran = False
        else:  # the read after it
            if self._host_ran:
                self.now += self.host
            else:
                self.now += self.compile if self.jit_timed == 0 else self.jit
                self.jit_timed += 1
            self._host_ran = False
        return self.now


def _check_call(compiled, seed):
    """One call against NumPy's on the same inputs: the result, the written x, dtypes; exact
    on the host route (it is NumPy), to rounding on the jitted one (a dot's order)."""
    want_args, got_args = _inputs(seed=seed), _inputs(seed=seed)
    want, got = trisolv_(*want_args), compiled(*got_args)
    assert type(got) is type(want) and got_args[1].dtype == want_args[1].dtype
    np.testing.assert_allclose(got, want, rtol=1e-13)
    np.testing.assert_allclose(got_args[1], want_args[1], rtol=1e-13)
    for w, g in zip(want_args[::2], got_args[::2]):
        np.testing.assert_array_equal(g, w)  # the arguments it only reads are unchanged
    return want, got, want_args[1], got_args[1]


# -- the decision's logic, on made-up estimates and times -------------------------------------

def test_plain_cases_are_decided_without_timing():
    assert choose("f()", True, "no loop", (5.0, 60.0), "cpu").route == HOST
    assert choose("f()", False, None, (5.0, 60.0), "cpu").route == JIT  # the host route not open
    assert choose("f()", True, None, (float("inf"), 60.0), "cpu").route == JIT  # a while loop
    assert choose("f()", True, None, (SKIP * 61.0, 60.0), "cpu").route == JIT
    assert choose("f()", True, None, (10.0, SKIP * 11.0), "cpu").route == HOST
    measured = choose("f()", True, None, (10.0 * SKIP, 11.0), "cpu")
    assert measured.route is None and measured.first == JIT
    assert choose("f()", True, None, (10.0, 11.0), "cpu").first == HOST
    assert choose("f()", True, None, None, "cpu").first == JIT  # a program the model does not know


def test_host_first_schedule_ignores_the_compile_and_compares_medians():
    c = choose("f()", True, None, (10.0, 20.0), "cpu")
    order = []
    times = {HOST: [3.5e-3, 3.7e-3, 3.6e-3], JIT: [9.0, 1.1e-3, 0.9e-3, 1.0e-3]}  # the first jitted call compiles
    while c.route is None:
        route = c.next_route()
        order.append(route)
        c.record(route, times[route].pop(0))
    assert order == [HOST, JIT, JIT, HOST, JIT, HOST, JIT] and c.route == JIT and c.compile_call == 9.0
    assert "NumPy 3.60 ms, jitted 1.00 ms (medians of 3 and 3 calls)" in c.describe()
    assert c.next_route() == JIT and not c.record(HOST, 1e-9)  # decided: later times change nothing


def test_a_tenfold_difference_decides_after_one_call_of_each_a_smaller_one_after_three():
    c = choose("f()", True, None, (30.0, 20.0), "cpu")
    seen = []
    for route, seconds in ((JIT, 2.0), (JIT, 0.1), (HOST, 0.1 * DECISIVE * 1.01)):  # a 1 s NumPy call
        assert c.next_route() == route
        seen.append(c.record(route, seconds))
    assert seen == [False, False, True] and c.route == JIT and len(c.samples[HOST]) == 1
    c = choose("f()", True, None, (30.0, 20.0), "cpu")
    seen = []
    calls = ((JIT, 2.0), (JIT, 1e-3), (HOST, 5e-3), (JIT, 2e-3), (HOST, 1e-2), (JIT, 1.5e-3), (HOST, 1e-3))
    for route, seconds in calls:
        assert c.next_route() == route
        seen.append(c.record(route, seconds))
    assert seen == [False] * 6 + [True] and c.route == JIT  # medians of three: 5 ms against 1.5 ms



def test_a_tenfold_difference_of_quick_calls_is_timed_three_times():
    # softmax_rows at a load of 17 (2026-12-07): one NumPy call of 15 ms where it takes 1.4,
    # against a 0.6 ms jitted call, sent it to the jitted route for good (4.5x slower)
    c = choose("f()", True, None, (10.0, 20.0), "cpu")
    times = {HOST: [15e-3, 1.4e-3, 1.5e-3], JIT: [2.0, 0.6e-3, 4e-3, 4e-3]}
    while c.route is None:
        turn = c.next_route()
        c.record(turn, times[turn].pop(0))
    assert c.route == HOST and len(c.samples[HOST]) == len(c.samples[JIT]) == 3


def test_quick_calls_within_wide_are_timed_six_times_each_slow_ones_three():
    # gemv_loop on the loaded 2-core VM (2026-12-07): NumPy's first three calls came out faster,
    # its later ones twice as slow; three calls each sent it to NumPy, 1.87x the jitted call
    host, jit = [1.0, 1.0, 1.0, 4.0, 4.0, 4.0], [2.0] * 6  # medians 1 and 2 after three, 2.5 and 2 after six
    for unit, route, calls in ((1e-3, JIT, choice.MOST), (1.0, HOST, 3)):  # 1 ms calls; 1 s calls
        c, times = choose("f()", True, None, (10.0, 20.0), "cpu"), {HOST: list(host), JIT: [900.0] + jit}
        while c.route is None:
            turn = c.next_route()
            c.record(turn, times[turn].pop(0) * unit)
        assert c.route == route and len(c.samples[HOST]) == len(c.samples[JIT]) == calls


def test_close_times_are_timed_more_and_a_tie_is_numpys():
    for host, route in ((1.1e-3, JIT), (1e-3, HOST)):  # within CLOSE; equal: NumPy's own function
        c, calls = choose("f()", True, None, (10.0, 20.0), "cpu"), 0
        while c.route is None:
            turn = c.next_route()
            c.record(turn, host if turn == HOST else 1e-3)
            calls += 1
        assert c.route == route and calls == 1 + 2 * choice.MOST


def test_off_the_cpu_the_transfers_count_in_the_estimate():
    x = np2ref.aligned(np.ones(1_000_000))  # read in place by XLA:CPU: no copy on the CPU
    jaxpr = np2ref.compile(total, host_below=0)._entry.trace_numpy(x).jaxpr
    numpy_cpu, jit_cpu = routes.estimate(jaxpr, [x], [])
    numpy_tpu, jit_tpu = routes.estimate(jaxpr, [x], [], platform="tpu")
    assert numpy_tpu == numpy_cpu
    assert jit_tpu >= routes.ACCEL_CALL + x.nbytes / routes.LINK_BYTES_PER_US  # 8 MB to the device
    assert jit_cpu < numpy_cpu < jit_tpu  # one fused pass on the CPU; on a TPU the transfer costs more
    assert choose("total", True, None, (numpy_cpu, jit_cpu), "cpu").first == JIT
    assert choose("total", True, None, (numpy_tpu, jit_tpu), "tpu").first == HOST


# -- np2ref.compile's calls, with a fake clock ------------------------------------------------

def test_measured_calls_keep_numpy_when_it_is_faster_and_every_call_is_numpys():
    compiled = np2ref.compile(trisolv_, host_below=1000)
    timed = Timed(compiled, host=1e-3, jit=4e-3)
    assert compiled.route(*_inputs()) is None
    for seed in range(9):
        _, _, want_x, got_x = _check_call(compiled, seed)
        if compiled.route(*_inputs()) == "host" and timed.host_calls > 3:
            np.testing.assert_array_equal(got_x, want_x)  # NumPy itself: bit for bit
    assert compiled.route(*_inputs()) == "host" and timed.reads == 14  # seven measured calls, then decided
    assert timed.host_calls == 3 + 2  # three while measuring, then every call
    text = compiled.explain()
    assert "NumPy (the host route): measured: NumPy 1.00 ms, jitted 4.00 ms" in text
    assert "trisolv_(float64[48,48], float64[48], float64[48])" in text and "compile included): 5.00 s" in text


def test_measured_calls_keep_the_translation_when_it_is_faster():
    compiled = np2ref.compile(trisolv_, host_below=1000)
    timed = Timed(compiled, host=4e-3, jit=3e-3)  # 1.33x, quick calls: six timed calls of each
    for seed in range(14):
        _check_call(compiled, seed)
    assert compiled.route(*_inputs()) == "jit" and timed.host_calls == choice.MOST and timed.reads == 26
    assert hasattr(compiled._host_fast, "inner")  # the jitted call's straight-line run, as for any jit route
    assert "the jitted translation: measured: NumPy 4.00 ms, jitted 3.00 ms" in compiled.explain()


def test_new_shapes_are_measured_afresh_and_alternate_with_decided_ones():
    compiled = np2ref.compile(trisolv_, host_below=1000)
    timed = Timed(compiled, host=1e-3, jit=5e-3)
    for _ in range(8):
        _check_call(compiled, 1)
    assert compiled.route(*_inputs()) == "host"
    other = _inputs(n=40)
    want_x = other[1].copy()
    compiled(*other)
    trisolv_(_inputs(n=40)[0], want_x, _inputs(n=40)[2])
    np.testing.assert_allclose(other[1], want_x, rtol=1e-13)
    assert compiled.route(*_inputs(n=40)) == "measuring" and compiled.route(*_inputs()) == "host"
    before = timed.host_calls
    _check_call(compiled, 2)  # the decided signature again: NumPy, untimed
    assert timed.host_calls == before + 1 and timed.reads == 16
    assert compiled.explain().count("trisolv_(float64") == 2  # one line per signature


def test_jax_arrays_and_mixed_calls_never_take_the_host_route():
    compiled = np2ref.compile(chain, host_below=1000)
    timed = Timed(compiled, host=1e-6, jit=1.0)
    x = np.linspace(0.1, 2.0, 5000)
    for _ in range(3):
        np.testing.assert_allclose(compiled(x), chain(x), rtol=1e-14)
    assert compiled.route(x) == "host"
    calls = timed.host_calls
    with jax.enable_x64(True):
        on_device = jax.numpy.asarray(x)
    out = compiled(on_device)
    assert type(out) is np.ndarray and timed.host_calls == calls  # already on a device: the jitted route
    np.testing.assert_allclose(np.asarray(out), chain(x), rtol=1e-14)
    assert compiled.route(on_device) == "jit"
    assert "calls with jax.Arrays, .device and .pure run the jitted translation" in compiled.explain()


def test_one_jax_array_among_numpy_ones_keeps_the_call_on_the_device_route():
    compiled = np2ref.compile(trisolv_, host_below=1000)
    timed = Timed(compiled, host=1e-6, jit=1.0)
    for seed in range(3):
        _check_call(compiled, seed)
    assert compiled.route(*_inputs()) == "host"
    L, x, b = _inputs()
    want_x = x.copy()
    want = trisolv_(L, want_x, b)
    with jax.enable_x64(True):
        L_on_device = jax.numpy.asarray(L)
    calls = timed.host_calls
    got = compiled(L_on_device, x, b)  # the written x is a NumPy array: written back in place
    assert timed.host_calls == calls and compiled.route(L_on_device, x, b) == "jit"
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13)
    np.testing.assert_allclose(x, want_x, rtol=1e-13)


def test_a_fake_accelerator_measures_where_the_cpu_would_not():
    # a product and a sum over an aligned 8 MB array: on the CPU the estimate tries the
    # translation first (it reads the array in place); on an accelerator the transfer makes
    # NumPy the first route tried, then both are timed
    x = np2ref.aligned(np.linspace(0.1, 2.0, 1_000_000))
    on_cpu, on_tpu = np2ref.compile(total, host_below=1000), np2ref.compile(total, host_below=1000)
    on_tpu._device_kind = "tpu"
    cpu_timed, tpu_timed = Timed(on_cpu, host=2e-3, jit=1e-3), Timed(on_tpu, host=2e-3, jit=1e-3)
    assert on_tpu(x) == total(x)  # NumPy ran: its own answer, bit for bit
    assert tpu_timed.host_calls == 1 and on_tpu.route(x) == "measuring"
    on_cpu(x)
    assert cpu_timed.host_calls == 0
    assert "estimated (tpu)" in on_tpu.explain() and "estimated (cpu)" in on_cpu.explain()


def test_closed_host_routes_say_why():
    assert np2ref.compile(chain, host_below=0).route(np.ones(3)) == "jit"
    assert "host_below=0" in np2ref.compile(chain, host_below=0).explain()
    assert "dtype_policy='float32'" in np2ref.compile(chain, host_below=1000, dtype_policy="float32").explain()
    assert "no call with NumPy arrays yet" in np2ref.compile(chain, host_below=1000).explain()


def test_a_host_turn_whose_arguments_share_memory_is_refused_as_the_jitted_call_refuses():
    compiled = np2ref.compile(trisolv_, host_below=1000)
    Timed(compiled, host=1e-3, jit=1e-3)
    L, x, b = _inputs()
    for _ in range(2):  # the jitted route first (the estimate's cheaper): its compile, a timed call
        compiled(L, x.copy(), b)
    assert compiled.route(L, x, b) == "measuring" and compiled._choices[next(iter(compiled._choices))].next_route() == HOST
    shared = np.zeros(48)
    with pytest.raises(np2ref.Np2RefError, match="NPR206"):  # the host route's turn, not open: refused
        compiled(L, shared, shared)
    np.testing.assert_array_equal(shared, np.zeros(48))


def test_choice_module_needs_no_jax():
    assert "jax" not in choice.__dict__ and Choice("f()", HOST, "why").describe().startswith("f(): NumPy")
