"""A function that holds a `try` (benchmarks/graph_break_scripts/own_try_*.py): main refused the
whole file (NPR015). Now the function stays NumPy host code (NPR021, naming the `try`'s line), the
`try` runs as NumPy runs it, and `convert` compiles the function's loops around it, or the steps of
a loop that holds it (frontend/host_loops.py, host_steps.py). A module function the `try` reaches
that writes arrays stays host code as well: compiled, an error it raised would leave its arguments
as before the call, where NumPy's handler sees them written up to the error."""

from pathlib import Path

import numpy as np
import pytest

import np2ref
from conftest import on_tpu
from converting import agree, convert_both
from exactly import run_both

SOLVE = """
import numpy as np

def relax_then_solve(A, b, nsteps):
    for step in range(nsteps):
        b[1:] += 0.5 * b[:-1]
    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
    for step in range(nsteps):
        x[1:] -= 0.1 * x[:-1]
    return x
"""

HALVING = """
import numpy as np

def grow(u, rate, nsteps):
    halved = 0
    for step in range(nsteps):
        u[1:] += 0.5 * u[:-1]
        try:
            with np.errstate(over="raise"):
                v = u * rate
        except FloatingPointError:
            rate /= 1e200
            halved += 1
            continue
        u[:] = v
        u[:-1] -= 0.25 * u[1:]
    return u, halved
"""

FINALLY = """
import numpy as np

def diffuse(u, nsteps):
    for step in range(nsteps):
        u[1:-1] += 0.2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    try:
        total = float(u.sum())
    finally:
        print("done", nsteps)
    return u, total
"""

REACHED = """
import numpy as np

def bump(u, idx):
    for i in range(len(idx)):
        u[idx[i]] += 1.0
    return u

def norm(u):
    return np.sqrt((u * u).sum())

def guarded(u, idx):
    total = 0.0
    try:
        bump(u, idx)
        total = norm(u)
    except IndexError:
        total = -1.0
    for k in range(3):
        u[1:] += u[:-1]
    return u, total
"""


@pytest.fixture(scope="module")
def solve(tmp_path_factory):
    return convert_both(SOLVE, tmp_path_factory.mktemp("try"), "try_solve")


def test_a_solve_and_its_lstsq_fallback_between_compiled_loops(solve):
    converted, original, lifted = solve
    assert converted.code.count("\n@npr_jit") == 2  # both loops, the try between them as written
    assert [(d.code, d.line) for d in converted.diagnostics if d.code == "NPR021"] == [("NPR021", 7)]
    regular = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    for A in (regular, singular):
        agree(original, lifted, "relax_then_solve", A, np.array([1.0, -2.0, 0.5]), 4)


def test_a_floating_point_error_halves_the_rate_and_continues(tmp_path):
    converted, original, lifted = convert_both(HALVING, tmp_path, "try_halving")
    assert "_grow_step_" in converted.code  # the loop's array work around the `try`: compiled steps
    if not on_tpu():  # (1e300 is beyond a TPU's float64 pair: float32's exponent range, docs/tpu.md)
        agree(original, lifted, "grow", np.array([1.0, 1e300, 2.0]), 1e10, 5)
    agree(original, lifted, "grow", np.array([1.0, 3.0, 2.0]), 1.5, 5)


def test_try_finally_prints_after_the_compiled_loop(tmp_path):
    converted, original, lifted = convert_both(FINALLY, tmp_path, "try_finally")
    assert converted.code.count("\n@npr_jit") == 1
    assert agree(original, lifted, "diffuse", np.exp(-np.linspace(-2.0, 2.0, 9) ** 2), 6) == "done 6\n"


def test_a_function_the_try_reaches_that_writes_stays_numpy(tmp_path):
    """bump() raises IndexError at its third index: NumPy's handler sees u written twice; compiled,
    bump() would have left u as before the call. norm() writes nothing: compiled."""
    converted, original, lifted = convert_both(REACHED, tmp_path, "try_reached")
    assert "def bump(" in converted.code and "@npr_jit\ndef norm(" in converted.code
    assert not any(line.startswith("def _bump") for line in converted.code.splitlines())
    notes = {d.message.split("()")[0] for d in converted.diagnostics if d.code == "NPR021"}
    assert notes == {"bump", "guarded"}
    u = np.linspace(0.0, 1.0, 5)
    agree(original, lifted, "guarded", u, np.array([0, 3, 9, 1]))
    agree(original, lifted, "guarded", u, np.array([0, 3, 4, 1]))


METHOD = """
import numpy as np

def bump(u, idx):
    for i in range(len(idx)):
        u[idx[i]] += 1.0

class Sim:
    def __init__(self, u):
        self.u = u

    def kick(self, idx):
        bump(self.u, idx)

def guarded(u, idx):
    s = Sim(u)
    try:
        s.kick(idx)
    except IndexError:
        print("out of range")
    return u
"""


def test_a_function_a_method_called_in_the_try_reaches_stays_numpy(tmp_path):
    converted, original, lifted = convert_both(METHOD, tmp_path, "try_method")
    assert "@npr_jit" not in converted.code.split("def bump(")[0].splitlines()[-1]
    assert agree(original, lifted, "guarded", np.linspace(0.0, 1.0, 5), np.array([0, 3, 9, 1])) == "out of range\n"


def test_the_loops_inside_a_try_that_catches_only_a_ctrl_c_are_compiled(tmp_path):
    """benchmarks/graph_break_scripts/own_try_interrupt.py: no compiled call raises
    KeyboardInterrupt, so the loop in the `try` is lifted, its counter returned."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "graph_break_scripts" / "own_try_interrupt.py"
    converted, original, lifted = convert_both(script.read_text(), tmp_path, "try_interrupt")
    assert "done = _simulate_loop_7(" in converted.code
    assert agree(original, lifted, "simulate", np.exp(-np.linspace(-2.0, 2.0, 16) ** 2), 30).startswith("energy ")


def test_compile_runs_it_as_convert_writes_it(solve):
    """main refused np2ref.compile of it (NPR021 naming the line); now it runs on the host, its two
    loops compiled (tests/script_breaks/test_compile_host.py); an option of one jitted program is
    still refused with the line of the `try`."""
    _, original, _ = solve
    compiled = np2ref.compile(original.relax_then_solve, host_below=0, bitwise=True)
    assert len(compiled.compiled_loops) == 2
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    run_both(original.relax_then_solve, singular, np.array([1.0, -2.0, 0.5]), 4, compiled=compiled)
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(original.relax_then_solve, static_argnames=("nsteps",))
    assert info.value.diagnostics[0].code == "NPR021"
    assert "holds a `try`" in str(info.value) and "line 7" in str(info.value)


TRAPPED = """
import numpy as np

def rhs(u):
    return np.square(u) - 0.5 * u

def integrate(u, dt, nsteps):
    rejected = 0
    for step in range(nsteps):
        try:
            with np.errstate(over="raise", invalid="raise"):
                trial = u + dt * rhs(u)
        except FloatingPointError:
            dt /= 2
            rejected += 1
            continue
        u[:] = trial
    return u, dt, rejected
"""


def test_a_function_a_try_trapping_float_errors_reaches_stays_numpy(tmp_path):
    """rhs() overflows under the `try`'s np.errstate(over="raise"): NumPy raises FloatingPointError
    there, a compiled rhs() computed inf and nan (main: 2 steps rejected and a nan state, where
    NumPy rejects 9 of 10 steps). rhs() writes nothing, so main compiled it."""
    converted, original, lifted = convert_both(TRAPPED, tmp_path, "try_trapped")
    assert "def rhs(" in converted.code and "@npr_jit\ndef rhs(" not in converted.code
    agree(original, lifted, "integrate", np.linspace(0.0, 1e154, 6), 4.0, 10)
    agree(original, lifted, "integrate", np.linspace(0.0, 1.0, 6), 0.1, 10)
