"""A rolled loop's carry-free work done before it (np2ref/rt/fission.py): the per-trip values
that read only the loop variable and values fixed before the loop are computed for all trips at
once, and the loop scans over them. Same values, bit for bit: each program runs with the rewrite
on and off and the two are compared with `array_equal` (and with NumPy); the TPU's float64
formulations (accurate64, forced on here) move out with the work they replace."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import on_tpu, program
from np2ref.rt import accurate64, fission

P = program("loop_fission")
RNG = np.random.default_rng(380)
CASES = {
    "diagonal_tanh": (RNG.random((40, 40)),),
    "forced_oscillator": (RNG.random(16), RNG.random(16), 3.0, 0.01, 30),
    "backwards_weights": (RNG.random(25),),
    "carried_only": (RNG.random(25),),
    "rows_then_sum": (RNG.standard_normal((12, 7)),),
    # x / 0.1 where x * (1 / 0.1) rounds to the next integer: floor 2, 6, 5, 22 (not 3, 7, 6, 23)
    "cells_counted": (np.array([0.3, 0.7, 0.6, 0.9, 1.1, 2.3, 0.5] * 3), 0.1),
    "loads_of_a_read_only_ref": (RNG.random(30), np.zeros(30)),
    "loads_of_a_written_ref": (RNG.random(30),),
}

# the same bits with and without the rewrite. Elsewhere XLA may round differently in one program
# than the other, by the last bit: an array division by a value it sees as a broadcast
# (rows_then_sum's `/ (1.0 + i)`) made a product by the reciprocal, or a product contracted with
# the loop's addition into one FMA (`s += np.exp(-x[i]) * (i + 1.0)` in the loop, not once the
# product is made before it: NumPy's rounding); where a quotient decides (cells_counted's floor)
# the division is fenced and NumPy's, as ever
BITS = ("diagonal_tanh", "forced_oscillator", "carried_only", "cells_counted", "loads_of_a_written_ref")


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _run(name, on, forced=False):
    """(result, the arguments after the call) of np2ref's jitted call with the rewrite on or off."""
    fission._npr_FISSION["on"] = on
    accurate64._npr_ACCURATE64["on"] = True if forced else None
    try:
        args = _copies(CASES[name])
        out = np2ref.compile(getattr(P, name), host_below=0)(*args)
    finally:
        fission._npr_FISSION["on"] = None
        accurate64._npr_ACCURATE64["on"] = None
    return out, args


@pytest.mark.parametrize("forced", [False, True], ids=["cpu", "tpu-rewrite"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_bits_with_the_work_before_the_loop(name, forced):
    if on_tpu() and name == "cells_counted":  # 0.3 / 0.1 is 2.9999999999999996 in IEEE float64, 3.0 in a
        pytest.skip("TPU's float32 pair (docs/tpu.md): a floor of a quotient on an integer's edge is not NumPy's")
    want_args = _copies(CASES[name])
    want = getattr(P, name)(*want_args)
    on, off = _run(name, True, forced), _run(name, False, forced)
    compared = 0
    for got_on, got_off, expected in zip((on[0], *on[1]), (off[0], *off[1]), (want, *want_args)):
        if isinstance(expected, (np.ndarray, np.floating)):
            if name in BITS and not forced and not on_tpu():  # (a TPU's 0-d and array sin differ)
                np.testing.assert_array_equal(np.asarray(got_on), np.asarray(got_off))
            assert np.asarray(got_on).dtype == np.asarray(expected).dtype
            np.testing.assert_allclose(got_on, expected, rtol=1e-13 if not on_tpu() else 1e-12, atol=1e-15)
            compared += 1
    assert compared


def _scan_bodies(jaxpr):
    return [e.params["jaxpr"].jaxpr for e in jaxpr.eqns if e.primitive.name == "scan"]


def _names(jaxpr):
    return [e.primitive.name for e in jaxpr.eqns]


def test_the_loop_scans_over_the_values_and_keeps_its_carry():
    def f(x):
        return jax.lax.fori_loop(0, 100, lambda i, s: s + jnp.tanh(x[i] * 2.0), 0.0)

    with jax.enable_x64(True):
        x = jnp.linspace(-2.0, 2.0, 100)
        closed = jax.make_jaxpr(f)(x)
        rewritten = fission._npr_loop_fission(closed.jaxpr)
        (before,), (after,) = _scan_bodies(closed.jaxpr), _scan_bodies(rewritten)
        assert "tanh" in _names(before) and "tanh" not in _names(after)
        assert "tanh" in _names(rewritten)  # once, over all trips, before the scan
        assert len(after.invars) == len(before.invars) + 1  # the per-trip values: one scanned input
        got = jax.core.eval_jaxpr(rewritten, closed.consts, x)
        want = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, x)
        if on_tpu():  # a TPU's 0-d and array tanh differ in the last bits of the pair
            np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=0, atol=1e-12)
        else:
            np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))


def test_nothing_moves_where_it_would_not_pay_or_would_not_fit():
    def carried(x):
        return jax.lax.fori_loop(0, 50, lambda i, s: jnp.tanh(s + x[i]), 0.0)

    def index_only(x):
        return jax.lax.fori_loop(0, 50, lambda i, s: s + x[(i * 7) % 50], 0.0)

    def huge(x):
        return jax.lax.fori_loop(0, 2000, lambda i, s: s + jnp.exp(x * i), jnp.zeros(4096))

    with jax.enable_x64(True):
        for f, x in ((carried, jnp.ones(50)), (index_only, jnp.ones(50)), (huge, jnp.ones(4096))):
            closed = jax.make_jaxpr(f)(x)
            assert fission._npr_loop_fission(closed.jaxpr) is closed.jaxpr, f.__name__


def test_values_the_same_every_trip_are_not_stacked_over_the_trips():
    """`u[idx] += power * dt` in a time loop: `power * dt` (and the wrap of idx) is the same on
    every trip. Stacked over 4,000 trips, each trip read its copy from a [trips, n] array: heat1d on
    a TPU ran at 1.48 of the hand port with fission, 1.07 without. Such a value stays in the body
    (XLA computes it once before the loop); work mixing it with the trip's own values moves."""
    def invariant(u, power, dt):
        return jax.lax.fori_loop(0, 300, lambda i, u: u.at[:3].add(power * dt), u)

    def mixed(x, power, dt):
        return jax.lax.fori_loop(0, 300, lambda i, s: s * (power * dt) + jnp.tanh(x[i]), 0.0)

    with jax.enable_x64(True):
        closed = jax.make_jaxpr(invariant)(jnp.zeros(8), jnp.ones(3), 0.5)
        assert fission._npr_loop_fission(closed.jaxpr) is closed.jaxpr
        x = jnp.linspace(-2.0, 2.0, 300)
        closed = jax.make_jaxpr(mixed)(x, 1.5, 0.5)
        rewritten = fission._npr_loop_fission(closed.jaxpr)
        (before,), (after,) = _scan_bodies(closed.jaxpr), _scan_bodies(rewritten)
        assert "tanh" not in _names(after) and len(after.invars) == len(before.invars) + 1
        stacked = [v.aval.shape for v in after.invars[len(before.invars):]]
        assert stacked == [()]  # one scanned value a trip (its tanh), not `power * dt` besides
        assert "mul" in _names(after)  # (s * (power * dt) stays in the loop, its product once)
        got = jax.core.eval_jaxpr(rewritten, closed.consts, x, 1.5, 0.5)
        want = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, x, 1.5, 0.5)
        # (to the last bit: XLA may contract `s * c + t` into one FMA in one program, not the other)
        # (on a TPU the loop's 0-d tanh is the scalar unit's, float32's precision, the array's the pair's)
        np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6 if on_tpu() else 1e-15)


def test_indices_made_from_the_trip_counter_are_not_stacked_over_the_trips():
    """iir_filter's `y[n] = b0 * x[n] + b1 * x[n - 1] - a1 * y[n - 1]`: the x part moves before the
    loop, but `n - 1` (and its wrap and cast) were stacked too, each trip loading its indices from
    arrays before it could address y with them: 2.68 of the hand port on a TPU. An integer index made
    from the trip counter alone stays in the body; only float values are scanned over."""
    def biquad(x, y):
        def trip(n, y):
            value = 0.5 * x[n] + 0.25 * x[n - 1] + 0.125 * y[n - 1] - 0.0625 * y[n - 2]
            return y.at[n].set(value)
        return jax.lax.fori_loop(2, x.shape[0], trip, y)

    with jax.enable_x64(True):
        x = jnp.linspace(-2.0, 2.0, 64)
        y = jnp.zeros(64).at[:2].set(x[:2])
        closed = jax.make_jaxpr(biquad)(x, y)
        rewritten = fission._npr_loop_fission(closed.jaxpr)
        (before,), (after,) = _scan_bodies(closed.jaxpr), _scan_bodies(rewritten)
        stacked = after.invars[len(before.invars):]
        assert stacked and all(np.dtype(v.aval.dtype).kind == "f" for v in stacked), [v.aval for v in stacked]
        got = jax.core.eval_jaxpr(rewritten, closed.consts, x, y)
        want = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, x, y)
        np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6 if on_tpu() else 1e-15)
