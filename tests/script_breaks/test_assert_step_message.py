"""`assert np.isfinite(u).all(), f"NaN at step {step}"` in a time loop: the assert is checked when
the compiled program runs (rt/branches.npr_assert) and its message, which formats the loop index
alone, is made after the run from the first failing trip's index (rt/truth._npr_message_template):
NumPy's AssertionError text. On main refused (NPR030: the message formats a loop index). A
message that computes with the index or formats array data stays refused, its hint the rewrite.

PYTEST_DONT_REWRITE: the programs' own asserts must raise Python's messages, not pytest's."""

import numpy as np
import pytest

import np2ref
from conftest import on_tpu
from exactly import run_both


def grow(u, nsteps, rate):
    for step in range(nsteps):
        u *= rate
        assert np.isfinite(u).all(), f"NaN at step {step:4d} of {nsteps} {{u}}"
    return u


def grow_plain(u, nsteps, rate):
    for step in range(nsteps):
        u *= rate
        assert np.all(np.isfinite(u)), f"blew up at step {step}"
    return u


def grow_shifted(u, nsteps, rate):
    for step in range(nsteps):
        u *= rate
        assert np.isfinite(u).all(), f"NaN at step {step + 1}"
    return u


def grow_shifted_bound(u, nsteps, rate):
    for step in range(nsteps):
        u *= rate
        n = step + 1
        assert np.isfinite(u).all(), f"NaN at step {n}"
    return u


_grow = np2ref.compile(grow, host_below=0, bitwise=True)


def _numpys_error(fn, *args):
    with pytest.raises(AssertionError) as want, np.errstate(over="ignore"):
        fn(*args)
    return str(want.value)


def test_a_passing_run_is_numpys():
    run_both(grow, np.linspace(0.5, 1.5, 5), 6, 1.5, compiled=_grow)


@pytest.mark.skipif(on_tpu(), reason="1e300 overflows where float64 does: a TPU's float64 has float32's exponent range (docs/tpu.md)")
@pytest.mark.parametrize("fn", [grow, grow_plain, grow_shifted_bound])
def test_a_failing_run_raises_numpys_message(fn):
    u = np.full(3, 1e300)
    text = _numpys_error(fn, u.copy(), 9, 10.0)
    compiled = _grow if fn is grow else np2ref.compile(fn, host_below=0)
    with pytest.raises(AssertionError) as got, np.errstate(over="ignore"):
        compiled(u.copy(), 9, 10.0)
    assert str(got.value) == text and "step" in text


def test_arithmetic_on_the_index_in_the_message_stays_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(grow_shifted, host_below=0)(np.ones(3), 4, 1.0)
    (d,) = info.value.diagnostics
    assert d.code == "NPR030" and "`n = step + 1`" in d.hint


def halve_until(u, tol, maxit):
    it = 0
    while np.abs(u).max() > tol:
        u *= 0.5
        it += 1
        assert it < maxit, f"no convergence after {it} iterations"
    return u, it


def test_an_assert_in_a_while_loop_on_data_is_checked():
    # on main the check was traced once with the checks off (a probe) and jax.jit reused that
    # trace: the assert was dropped and the call returned where NumPy raises (rt/refs.py)
    compiled = np2ref.compile(halve_until, host_below=0, bitwise=True)
    run_both(halve_until, np.ones(3), 1e-3, 50, compiled=compiled)
    text = _numpys_error(halve_until, np.ones(3), 1e-3, 4)
    with pytest.raises(AssertionError) as got:
        compiled(np.ones(3), 1e-3, 4)
    assert str(got.value) == text == "no convergence after 4 iterations"


def halve_plain(u, tol, maxit):
    it = 0
    while np.abs(u).max() > tol:
        u *= 0.5
        it += 1
        assert it < maxit, "no convergence"
    return u, it


def test_an_assert_with_a_plain_message_in_a_while_loop_on_data_raises():
    # a message of Python values alone: on main it compiled, and the call returned (u halved
    # down to tol, it = 10) where NumPy raises, the probe's trace without the check reused
    compiled = np2ref.compile(halve_plain, host_below=0, bitwise=True)
    run_both(halve_plain, np.ones(3), 1e-3, 50, compiled=compiled)
    text = _numpys_error(halve_plain, np.ones(3), 1e-3, 4)
    u = np.ones(3)
    with pytest.raises(AssertionError) as got:
        compiled(u, 1e-3, 4)
    assert str(got.value) == text == "no convergence"
    assert (u == 1.0).all()  # raised before anything was written back


def check_pair(u, limit):
    for step in range(3):
        u += 1.0
        assert u.max() < limit, ("too big", step)
    return u


def test_a_message_that_is_a_tuple_stays_the_tuple():
    # a tuple of Python values is the exception's argument, as in NumPy; never a step template
    text = _numpys_error(check_pair, np.zeros(2), 2.5)
    with pytest.raises(AssertionError) as got:
        np2ref.compile(check_pair, host_below=0)(np.zeros(2), 2.5)
    assert str(got.value) == text == "('too big', 2)"
