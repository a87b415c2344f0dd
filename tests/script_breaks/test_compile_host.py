"""np2ref.compile of a function that holds a `try` or uses a class of its module: main refused it
(NPR021 naming the line; only `convert` compiled its loops). Now it runs on the host as `convert`
writes it, its loops before, after and around the `try` compiled (compiled/host_function.py):
NumPy's results, arguments and printed text bit for bit (bitwise=True), NumPy's exception with
the arrays written before it, the user's class and the module's values at each call."""

from __future__ import annotations

import copy
import textwrap

import numpy as np
import pytest

import np2ref
from conftest import load_module, numpys_values, on_tpu
from exactly import run_both

SCRIPT = """
import numpy as np
from dataclasses import dataclass

RATE = 0.5


def smooth_and_solve(A, b, nsweeps):
    for sweep in range(nsweeps):
        b[1:-1] = 0.25 * b[:-2] + 0.5 * b[1:-1] + 0.25 * b[2:]
    try:
        x = np.linalg.solve(A, b)
        print("solved")
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
        print("singular: least squares")
    r = b - A @ x
    for sweep in range(nsweeps):
        x[1:] += 0.1 * r[1:] - 0.05 * x[:-1]
    return x


def halving(u, dt, nsteps):
    halved = 0
    for step in range(nsteps):
        u[1:] += 0.5 * u[:-1]
        try:
            with np.errstate(over="raise"):
                trial = u * dt
        except FloatingPointError:
            dt /= 1e200
            halved += 1
            continue
        u[:] = trial
        u[:-1] -= 0.25 * u[1:]
    return u, dt, halved


def relax_finally(u, nsteps):
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
    try:
        total = float(u.sum())
    finally:
        print("done", nsteps)
    return u, total


def raise_after_writes(u, A, b, nsteps):
    for step in range(nsteps):
        u[1:] += 0.5 * u[:-1]
    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        raise ValueError(f"singular after {nsteps} sweeps, u[-1] = {u[-1]:.6f}")
    return x


@dataclass
class Params:
    gain: float = 0.5
    decay: float = 0.75


def with_params(u, nsteps):
    p = Params()
    for step in range(nsteps):
        u[1:] += p.gain * u[:-1]
        u *= p.decay
    print(p)
    return u


class Walker:
    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.t = 0.0
        self.n = 0


def walk(x, v, dt, nsteps):
    w = Walker(x.copy(), v.copy())
    for step in range(nsteps):
        w.v -= dt * w.x
        w.x += dt * w.v
        w.t += dt
        w.n += 1
    return w.x, w.v, w.t, w.n


def walker_of(x, nsteps):
    w = Walker(x.copy(), np.zeros_like(x))
    for step in range(nsteps):
        w.x *= RATE
    return w


def uses_global(u, nsteps):
    global RATE
    try:
        RATE = 2.0
    except TypeError:
        pass
    for step in range(nsteps):
        u *= RATE
    return u
"""


@pytest.fixture(scope="module")
def script(tmp_path_factory):
    return load_module(SCRIPT, tmp_path_factory.mktemp("compile_host"), "compile_host_script")


@pytest.fixture(scope="module")
def compiled(script):
    made = {}

    def get(name, **options):
        key = (name, tuple(sorted(options.items())))
        if key not in made:
            made[key] = np2ref.compile(getattr(script, name), host_below=0, bitwise=True, **options)
        return made[key]
    return get


REGULAR = np.eye(5) * 4.0 + np.diag(np.ones(4), 1)
SINGULAR = np.vander(np.linspace(0.0, 1.0, 5), 5)
SINGULAR[-1] = SINGULAR[-2]


@pytest.mark.parametrize("A", [REGULAR, SINGULAR], ids=["regular", "singular"])
def test_solve_and_its_lstsq_fallback_between_compiled_loops(script, compiled, A):
    fn = compiled("smooth_and_solve")
    assert len(fn.compiled_loops) == 2 and all(n.startswith("_smooth_and_solve_loop_") for n in fn.compiled_loops)
    run_both(script.smooth_and_solve, A, np.sin(np.arange(5.0)), 12, compiled=fn)
    assert fn.explain().startswith("smooth_and_solve(): runs on the host")
    assert isinstance(fn, np2ref.Compiled) and fn.mutated == ()


def _bits(got, want):
    """NumPy's bytes; on a TPU, whose float64 is a float32 pair (48 bits), NumPy's values to 1e-13."""
    return numpys_values(got, want) if on_tpu() else got.tobytes() == want.tobytes()


def test_floating_point_error_halves_and_continues(script, compiled):
    fn = compiled("halving")
    assert fn.compiled_loops  # the loop's array work around the `try`: compiled steps
    if not on_tpu():  # (1e300 is beyond a TPU's float64 pair: float32's exponent range, docs/tpu.md)
        run_both(script.halving, np.array([1.0, 1e300, 2.0]), 1e10, 5, compiled=fn)
    run_both(script.halving, np.array([1.0, 3.0, 2.0]), 1.5, 5, compiled=fn)


def test_finally_prints_after_the_compiled_loop(script, compiled):
    fn = compiled("relax_finally")
    assert len(fn.compiled_loops) == 1
    run_both(script.relax_finally, np.exp(-np.linspace(-2.0, 2.0, 9) ** 2), 6, compiled=fn)


def test_arrays_written_before_the_raise_stay_written(script, compiled):
    fn = compiled("raise_after_writes")
    u0 = np.linspace(0.0, 1.0, 6)
    want_u, got_u = u0.copy(), u0.copy()
    with pytest.raises(ValueError) as want:
        script.raise_after_writes(want_u, SINGULAR, np.ones(5), 4)
    with pytest.raises(ValueError) as got:
        fn(got_u, SINGULAR, np.ones(5), 4)
    assert str(got.value) == str(want.value)
    assert _bits(got_u, want_u) and not np.array_equal(got_u, u0)
    run_both(script.raise_after_writes, u0, REGULAR, np.ones(5), 4, compiled=fn)


def test_dataclass_parameters_read_in_a_loop(script, compiled):
    fn = compiled("with_params")
    assert fn.compiled_loops
    assert run_both(script.with_params, np.linspace(1.0, 2.0, 7), 30, compiled=fn) == "Params(gain=0.5, decay=0.75)\n"


def test_object_with_array_attributes_updated_in_a_loop(script, compiled):
    fn = compiled("walk")
    assert fn.compiled_loops
    run_both(script.walk, np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.01, 200, compiled=fn)


def test_the_users_class_and_the_modules_value_at_each_call(script, compiled):
    fn = compiled("walker_of")
    x = np.array([1.0, 2.0])
    w = fn(x, 3)
    assert type(w) is script.Walker and w.x.tobytes() == script.walker_of(x, 3).x.tobytes()
    script.RATE = 0.25  # a rebinding after the first call reaches the next one
    try:
        assert fn(x, 3).x.tobytes() == script.walker_of(x, 3).x.tobytes() == (x * 0.25 ** 3).tobytes()
    finally:
        script.RATE = 0.5


def test_what_cannot_be_exact_is_refused(script, compiled):
    fn = compiled("walk")
    with pytest.raises(np2ref.Np2RefError) as err:
        fn.pure(np.ones(2), np.ones(2), 0.1, 3)
    assert err.value.diagnostics[0].code == "NPR021"
    with pytest.raises(np2ref.Np2RefError) as err:  # (one jitted program's option)
        np2ref.compile(script.walk, static_argnames=("nsteps",))
    assert err.value.diagnostics[0].code == "NPR021" and "static_argnames" in err.value.diagnostics[0].hint
    with pytest.raises(np2ref.Np2RefError) as err:  # a copy of the module would rebind its own RATE
        np2ref.compile(script.uses_global)
    assert err.value.diagnostics[0].code == "NPR021" and "global" in err.value.diagnostics[0].hint


def test_verify_compares_the_first_call(script):
    fn = np2ref.compile(script.smooth_and_solve, verify=True, host_below=0, bitwise=True)
    b = np.sin(np.arange(5.0))
    want = script.smooth_and_solve(REGULAR, b.copy(), 3)
    assert _bits(fn(REGULAR, copy.deepcopy(b), 3), want) and fn._verified


def test_a_clock_alone_is_still_refused(tmp_path):
    clock = load_module(textwrap.dedent("""
        import time
        import numpy as np

        def timed(u, n):
            t0 = time.time()
            for i in range(n):
                u *= 0.5
            return u, time.time() - t0
        """), tmp_path, "compile_host_clock")
    with pytest.raises(np2ref.Np2RefError) as err:
        np2ref.compile(clock.timed)
    assert err.value.diagnostics[0].code == "NPR021"
