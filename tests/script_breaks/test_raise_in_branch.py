"""`raise` under a branch on array data (`if not np.isfinite(u).all(): raise RuntimeError(...)`
in a time loop, `if np.any(x < 0): raise ValueError(...)` on input): NumPy raises when the branch
is taken. On main the traced branch's `raise` ran while it was traced, so every call raised,
taken or not (a wrong answer), or the message's loop index was refused (NPR031, its hint about
a float argument). Now a run-time check (rt/raises.py): NumPy's results where no branch raises,
NumPy's exception (type and message, the first failing trip) where one does."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import converted_functions, on_tpu
from exactly import run_both


def grow(u, nsteps, rate):
    for step in range(nsteps):
        u *= rate
        if not np.isfinite(u).all():
            raise RuntimeError(f"blew up at step {step:3d}")
        if step % 2 == 0:
            print(f"step {step}: max {u.max():.6e}")
    return u


def grow_const(u, nsteps, rate):
    for step in range(nsteps):
        u *= rate
        if np.isnan(u).any() or np.isinf(u).any():
            raise FloatingPointError("the solution blew up")
    return u


def checked_input(x, scale):
    if np.any(x < 0):
        raise ValueError("negative input")
    x *= scale
    return x.sum()


def settle(u, tol, maxit):
    it = 0
    while np.abs(u).max() > tol:
        u *= 0.5
        it += 1
        if it >= maxit:
            raise RuntimeError(f"no convergence after {it} iterations")
    return u, it


_compiled = {f.__name__: np2ref.compile(f, host_below=0, bitwise=True) for f in (grow, grow_const, checked_input, settle)}


def _same_error(fn, *args):
    with pytest.raises(Exception) as want, np.errstate(all="ignore"):
        fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with pytest.raises(Exception) as got, np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _compiled[fn.__name__](*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    assert type(got.value) is type(want.value) and got.value.args == want.value.args
    return str(want.value)


@pytest.mark.parametrize("rate", [1.5, 0.5])
def test_a_loop_whose_check_holds_is_numpys(rate):
    run_both(grow, np.linspace(0.5, 1.0, 4), 6, rate, compiled=_compiled["grow"])
    run_both(grow_const, np.linspace(0.5, 1.0, 4), 6, rate, compiled=_compiled["grow_const"])


@pytest.mark.skipif(on_tpu(), reason="1e300 overflows where float64 does: a TPU's float64 has float32's exponent range (docs/tpu.md)")
def test_the_first_failing_trip_raises_numpys_message():
    assert _same_error(grow, np.full(3, 1e305), 9, 10.0) == "blew up at step   3"
    assert _same_error(grow_const, np.full(3, 1e305), 9, 10.0) == "the solution blew up"


def test_a_check_of_the_input():
    run_both(checked_input, np.arange(4.0), 2.0, compiled=_compiled["checked_input"])
    assert _same_error(checked_input, np.array([1.0, -1.0]), 2.0) == "negative input"


def test_a_while_loop_that_gives_up():
    run_both(settle, np.ones(3), 1e-3, 50, compiled=_compiled["settle"])
    assert _same_error(settle, np.ones(3), 1e-3, 4) == "no convergence after 4 iterations"


def test_the_converted_module_runs_when_no_branch_raises(tmp_path):
    converted = converted_functions(__import__(__name__), ["grow_const"], tmp_path, "raises_in_branch")
    u = np.linspace(0.5, 1.0, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = np.asarray(converted.grow_const(u.copy(), 6, 1.5))
    assert np.allclose(got, grow_const(u.copy(), 6, 1.5), rtol=1e-12)


def stuck(u, maxit):
    it = 0
    while np.abs(u).max() > 0.0:
        u *= 1.0
        it += 1
        if it >= maxit:
            raise RuntimeError(f"stuck after {it} iterations")
    return it


def test_a_loop_that_never_ends_stops_at_the_raise():
    # the compiled loop stops at the failed check as NumPy's does (else it would run forever)
    _compiled["stuck"] = np2ref.compile(stuck, host_below=0)
    assert _same_error(stuck, np.ones(2), 7) == "stuck after 7 iterations"


def shift_nest(out, x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] < 0:
                raise ValueError(f"negative at row {i}")
            out[i, j] = x[i, j] + 1.0


def test_a_raise_in_a_loop_nest_raises_at_numpys_first_trip():
    # a nest of element loops (the kind rt/vectorise.py may run as lanes): NumPy's results, and
    # the first failing element in loop order names its row, whichever later ones fail too
    _compiled["shift_nest"] = np2ref.compile(shift_nest, host_below=0)
    x = np.arange(12.0).reshape(3, 4)
    run_both(shift_nest, np.zeros_like(x), x, compiled=_compiled["shift_nest"])
    x[1, 3], x[2, 0], x[0, 0] = -1.0, -2.0, 0.0
    assert _same_error(shift_nest, np.zeros_like(x), x) == "negative at row 1"
