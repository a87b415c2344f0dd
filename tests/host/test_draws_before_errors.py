"""Draws before NumPy's error (fuzz8's pool_window seed 3, fuzz_170327fbe0): `a += rng.normal();
Y[0] = X[9]` raises IndexError in NumPy after the draw is made, so the caller's Generator has
advanced. np2ref raised the same IndexError while tracing (the index is known then), before its
program ran, and the Generator was left where it was. The draws the call's trace staged before the
error are now made by the call (rt/bounds.py _npr_effects_made), in order; one in a loop body or
branch, or with parameters from the program's values, cannot be made again exactly: NPR023.
An index known only when the program runs is checked then, and the call raises after its run:
the draws staged after the failing statement wait on the check record and are not made.
Differential: the error (type and text) and the generators' next draws after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits


def straight(a, rng, X, Y):
    a += rng.normal(0.0, 0.5)
    t = rng.integers(0, 10, size=2)
    Y[0] = X[9] + t[0]


def global_state(X, Y):
    Y[1] = np.random.rand()
    Y[0] = X[len(X) + 1]


def seeded(X, Y):
    np.random.seed(4)
    Y[1] = np.random.normal()
    Y[0] = X[9]


def after_the_error(rng, X, Y):  # a draw after the failing read: not made, in NumPy as here
    Y[0] = X[9]
    Y[1] = rng.normal()


def looped(rng, X, Y):  # a Python loop (unrolled: each draw in the call's own trace)
    for i in range(3):
        Y[i] = rng.normal()
    Y[0] = X[9]


def _args():
    return (np.array(-1.75), np.random.default_rng(2), np.arange(8.0), np.zeros(3))


CASES = [(straight, lambda: _args()), (global_state, lambda: _args()[2:]), (seeded, lambda: _args()[2:]),
         (after_the_error, lambda: _args()[1:]), (looped, lambda: _args()[1:])]


def _raised(fn, args):
    np.random.seed(11)
    with pytest.raises(IndexError) as info:
        fn(*args)
    gens = [a.random() for a in args if isinstance(a, np.random.Generator)]
    return str(info.value), gens, np.random.random()


@pytest.mark.parametrize("host_below", [0, None])  # (None: the route's trace raises first)
@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_generators_end_where_numpys_run_leaves_them(fn, args, host_below):
    want = _raised(fn, args())
    compiled = np2ref.compile(fn, host_below=host_below)
    assert _raised(compiled, args()) == want
    assert _raised(compiled, args()) == want  # a second call: traced again, its draws made again


def from_data(rng, X, Y):  # a draw with a parameter from the program's values
    Y[1] = rng.normal(X[0], 1.0)
    Y[0] = X[9]


def in_a_while(rng, X, Y):  # draws in a loop on data (a lax loop: its body traced once)
    while Y[0] < 1.0:
        Y[0] += rng.random()
    Y[1] = X[9]


def global_from_data(X, Y):  # NumPy's global state: np2ref.compile's route is traced first
    Y[1] = np.random.normal(X[0], 1.0)
    Y[0] = X[9]


@pytest.mark.parametrize("host_below", [0, None])
@pytest.mark.parametrize("fn, args", [(from_data, lambda: _args()[1:]), (in_a_while, lambda: _args()[1:]),
                                      (global_from_data, lambda: _args()[2:])],
                         ids=lambda c: getattr(c, "__name__", None))
def test_draws_not_made_again_exactly_are_refused(fn, args, host_below):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=host_below)(*args())
    assert [d.code for d in info.value.diagnostics] == ["NPR023"]
    assert "before NumPy's IndexError" in str(info.value)


def checked_when_run(rng, X, Y, k):  # k known only when the program runs: its check fails after the run
    Y[0] = X[k]
    Y[1] = rng.normal()


def checked_in_a_loop(rng, X, Y, k):  # the check fails in the third trip: that trip's draw and later ones not made
    for i in range(4):
        Y[0] += rng.normal()
        Y[1] = X[k + i]
        np.random.seed(i)


def made_after(X, Y, k):  # a generator made and seeded after the failing read: neither happens
    Y[0] = X[k]
    rng = np.random.default_rng(3)
    Y[1] = rng.normal() + np.random.rand()


@pytest.mark.parametrize("host_below", [0, None])
@pytest.mark.parametrize("fn, args", [
    (checked_when_run, lambda: (np.random.default_rng(1), np.arange(3.0), np.zeros(2), np.int64(5))),
    (checked_when_run, lambda: (np.random.default_rng(1), np.arange(3.0), np.zeros(2), np.int64(-4))),
    (checked_in_a_loop, lambda: (np.random.default_rng(1), np.arange(3.0), np.zeros(2), np.int64(1))),
    (made_after, lambda: (np.arange(3.0), np.zeros(2), np.int64(3)))], ids=lambda c: getattr(c, "__name__", None))
def test_draws_after_a_check_known_only_when_the_program_runs(fn, args, host_below):
    """A run-time index check fails after the whole program ran; the draws (seedings) staged after
    the failing statement are not made (each waits on the check record: rt/host.py)."""
    compiled = np2ref.compile(fn, host_below=host_below)
    assert _raised(compiled, args()) == _raised(fn, args())
    assert _raised(compiled, args()) == _raised(fn, args())


def test_draws_of_a_run_whose_checks_pass_are_all_made():
    args = lambda: (np.random.default_rng(1), np.arange(3.0), np.zeros(2), np.int64(-3))  # noqa: E731
    compiled = np2ref.compile(checked_when_run, host_below=0)
    want, got = args(), args()
    checked_when_run(*want)
    compiled(*got)
    assert_numpys_bits(got[2], want[2])  # (a draw through a TPU's float64 pair: 1e-13)
    assert got[0].random() == want[0].random()


def printed_around(X, Y, k):
    print("before", X[0])
    Y[0] = X[k]
    print("after", Y[0])


def test_no_print_after_a_failed_run_time_check(capsys):
    """A print after the failing statement is not made either (NumPy raised before it)."""
    outs = []
    for fn in (printed_around, np2ref.compile(printed_around, host_below=0)):
        with pytest.raises(IndexError):
            fn(np.arange(3.0), np.zeros(2), np.int64(4))
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == "before 0.0\n"


def drawn_in_advance(x, n, rng, k):  # the loop's draws are made before it (rt/draws.py npr_draws)
    for i in range(n):
        prop = x + rng.normal(0.0, 0.1, size=x.shape)
        u = rng.random()
        x[...] = prop * u
        x[0] += x[k + i]


def drawn_in_advance_after(x, n, rng, k):  # the check fails before the loop: its draws are not made
    x[1] = x[k]
    for i in range(n):
        prop = x + rng.normal(0.0, 0.1, size=x.shape)
        u = rng.random()
        x[...] = prop * u


def _own_source(compiled, name):
    return compiled.source.split(f"def {name}(")[1].split("\ndef ")[0]


def test_draws_in_advance_after_a_failed_check_are_not_made():
    args = lambda: (np.ones(4), 6, np.random.default_rng(1), np.int64(7))  # noqa: E731
    compiled = np2ref.compile(drawn_in_advance_after, host_below=0)
    assert "npr_draws(" in _own_source(compiled, "drawn_in_advance_after")
    assert _raised(compiled, args()) == _raised(drawn_in_advance_after, args())


def test_draws_made_in_advance_before_a_check_that_fails_in_the_loop():
    """The loop's draws were all made before it: after the check fails in trip j, the Generator is
    put back and trip j's and earlier draws made again (rt/draws.py _NprReplay; every draw kind:
    tests/host/test_advance_draws_after_errors.py)."""
    args = lambda: (np.ones(4), 6, np.random.default_rng(1), np.int64(1))  # noqa: E731
    compiled = np2ref.compile(drawn_in_advance, host_below=0)
    assert "npr_draws(" in _own_source(compiled, "drawn_in_advance")
    assert _raised(compiled, args()) == _raised(drawn_in_advance, args())


def advance_then_error(x, n, rng, X, Y):  # every trip's draws made before NumPy's error after the loop
    for i in range(n):
        u = rng.random()
        v = rng.normal(0.0, 2.0, size=2)
        x[0] += u + v[1]
    Y[0] = X[9]


def advance_error_in_body(x, n, rng, X, Y):  # NumPy's error in the first trip, after its first draw
    for i in range(n):
        u = rng.random()
        x[0] += u + X[9]


def advance_from_data(x, n, rng, X, Y):  # a draw's parameter from the program's values
    s = X[0] * 2.0
    for i in range(n):
        x[0] += rng.normal(s, 1.0)
    Y[0] = X[9]


def _advance_args():
    return np.zeros(3), 5, np.random.default_rng(6), np.arange(8.0), np.zeros(2)


@pytest.mark.parametrize("host_below", [0, None])
def test_draws_in_advance_before_an_error_raised_while_tracing_after_the_loop(host_below):
    """The loop traced whole, then NumPy's error while tracing: every trip's draws made, by the
    call, as NumPy's loop made them (rt/draws.py _npr_loop_traced); it was NPR023."""
    compiled = np2ref.compile(advance_then_error, host_below=host_below)
    assert "npr_draws(" in _own_source(compiled, "advance_then_error")
    assert _raised(compiled, _advance_args()) == _raised(advance_then_error, _advance_args())
    assert _raised(compiled, _advance_args()) == _raised(advance_then_error, _advance_args())


@pytest.mark.parametrize("fn", [advance_error_in_body, advance_from_data], ids=lambda f: f.__name__)
def test_draws_in_advance_not_made_again_exactly_are_refused(fn):
    compiled = np2ref.compile(fn, host_below=0)
    assert "npr_draws(" in _own_source(compiled, fn.__name__)
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled(*_advance_args())
    assert [d.code for d in info.value.diagnostics] == ["NPR023"]
