"""A module class used by a function with a hot loop (benchmarks/graph_break_scripts/own_*class*):
main refused the whole file (NPR003 at the constructor's call). Now the function stays NumPy host
code (NPR021 naming the line) and `convert` compiles its loops: a loop that reads and writes the
attributes of an object the function made of a plain class gets each attribute as a local, written
back after the call (frontend/carried_attrs.py); a loop that calls the object's methods keeps them
on the host between compiled steps (frontend/host_steps.py). Each against NumPy, through the
converted module."""

from pathlib import Path

import numpy as np
import pytest

import np2ref
from converting import agree, convert_both
from exactly import run_both

SOURCE = """
import numpy as np
from dataclasses import dataclass


@dataclass
class Params:
    dt: float
    nu: float = 0.5


class State:
    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.t = 0.0
        self.kicks = 0

    def energy(self):
        return 0.5 * float((self.v ** 2 + self.x ** 2).sum())


class Watched:
    def __init__(self, x):
        self._x = x

    @property
    def x(self):
        print("read")
        return self._x


def diffuse(u, nsteps):
    p = Params(0.1)
    for step in range(nsteps):
        u[1:-1] += p.nu * p.dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return u


def shown_after(u, nsteps):
    p = Params(0.05, nu=0.25)
    for step in range(nsteps):
        u[1:-1] += p.nu * p.dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    print(p)
    shown = [p]
    for step in range(nsteps):
        u[1:] += p.dt * u[:-1]
    return u, len(shown)


def leapfrog(x0, v0, dt, nsteps):
    s = State(x0.copy(), v0.copy())
    for step in range(nsteps):
        s.v -= dt * s.x
        s.x += dt * s.v
        s.t += dt
        s.kicks += 1
    print(f"t = {s.t:.4f} after {s.kicks} kicks, energy {s.energy():.12f}")
    return s.x, s.v, s.t, s.kicks


def in_place(x0, v0, dt, nsteps):
    s = State(x0, v0)
    for step in range(nsteps):
        s.v -= dt * s.x
        s.x += dt * s.v
    return s.energy()


def watched(u, nsteps):
    w = Watched(u)
    for step in range(nsteps):
        w.x[1:] += 0.5 * w.x[:-1]
    return u
"""


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    return convert_both(SOURCE, tmp_path_factory.mktemp("classes"), "classes")


def _lifted(converted, name):
    return f"\ndef _{name}_loop_" in converted.code


def test_dataclass_fields_read_in_a_compiled_loop(both):
    converted, original, lifted = both
    assert _lifted(converted, "diffuse") and "_p_dt, _p_nu = p.dt, p.nu" in converted.code
    agree(original, lifted, "diffuse", np.linspace(0.0, 1.0, 9) ** 2, 7)


def test_an_object_shown_or_kept_after_a_loop_is_carried_before_it(both):
    """`print(p)` and `[p]` come after the first loop: its fields are carried; the second loop,
    after them, reads them through the object (a static argument of the lifted function)."""
    converted, original, lifted = both
    assert converted.code.count("_p_dt, _p_nu = p.dt, p.nu") == 2  # (diffuse's and the first loop's)
    assert agree(original, lifted, "shown_after", np.linspace(0.0, 1.0, 9) ** 2, 5) == "Params(dt=0.05, nu=0.25)\n"


def test_array_and_number_attributes_carried_and_written_back(both):
    converted, original, lifted = both
    assert _lifted(converted, "leapfrog") and "s.kicks, s.t, s.v, s.x = _s_kicks, _s_t, _s_v, _s_x" in converted.code
    x0 = np.linspace(-1.0, 1.0, 5)
    assert agree(original, lifted, "leapfrog", x0, np.cos(x0), 0.01, 50).startswith("t = 0.5000 after 50 kicks")
    agree(original, lifted, "leapfrog", x0, np.cos(x0), 0.01, 0)


def test_attributes_holding_the_callers_arrays_are_written_in_place(both):
    converted, original, lifted = both
    assert _lifted(converted, "in_place")
    x0 = np.linspace(-1.0, 1.0, 5)
    agree(original, lifted, "in_place", x0, np.cos(x0), 0.02, 30)  # (x0 and v0 compared after the call)


def test_a_method_called_each_step_stays_on_the_host_between_compiled_steps(tmp_path):
    """own_counter_class: a tqdm-like counter class of the module, `bar.update()` each step."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "graph_break_scripts" / "own_counter_class.py"
    converted, original, lifted = convert_both(script.read_text(), tmp_path, "counter_class")
    assert "_diffuse_step_" in converted.code and not _lifted(converted, "diffuse")
    assert agree(original, lifted, "diffuse", np.exp(-np.linspace(-2.0, 2.0, 12) ** 2), 10) == "5/10\n10/10\n"


def test_a_class_with_a_property_is_not_carried(both):
    converted, original, lifted = both
    assert "_w_x" not in converted.code
    agree(original, lifted, "watched", np.linspace(0.0, 1.0, 6), 3)


ARGS = (np.linspace(-1.0, 1.0, 5), np.cos(np.linspace(-1.0, 1.0, 5)), 0.01, 50)


def test_compile_runs_it_as_convert_writes_it(both):
    """main refused np2ref.compile of it (NPR021 naming the line); now it runs on the host, its loop
    compiled with the attributes carried (compiled/host_function.py); `.pure` (no one program) is
    refused, an option of one jitted program too, with the line of the class."""
    _, original, _ = both
    compiled = np2ref.compile(original.leapfrog, host_below=0)
    assert compiled.compiled_loops
    agree(original, type("M", (), {"leapfrog": staticmethod(compiled)}), "leapfrog", *ARGS)
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled.pure(*ARGS)
    assert info.value.diagnostics[0].code == "NPR021"
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(original.leapfrog, static_argnames=("nsteps",))
    line = SOURCE.splitlines().index("    s = State(x0.copy(), v0.copy())") + 1
    assert "module's class `State`" in str(info.value) and f"line {line})" in str(info.value)


GETTER = """
import numpy as np
from dataclasses import dataclass


@dataclass
class Grid:
    n: int = 8
    alpha: float = 0.25

    @property
    def dx(self):
        return 1.0 / (self.n - 1)


def sized(u, nsteps):
    g = Grid(n=u.size)
    dx = g.dx
    for step in range(nsteps):
        u[1:-1] += g.alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    print(g, dx)
    return u


def read_in_loop(u, nsteps):
    g = Grid(n=u.size)
    for step in range(nsteps):
        u *= 1.0 - g.dx
    return u


def holds_it(u, nsteps):
    g = Grid(n=u, alpha=0.5)
    for step in range(nsteps):
        u *= g.alpha
    return g.n
"""


def test_a_getter_class_and_a_size_read_by_its_constructor_are_carried(tmp_path):
    """main passed `g` whole to the lifted loop (a property class is not plain, and the constructor
    reads `u`): a new object each call, a static argument, compiled again on every call (own_dataclass_grid:
    about 1 s a call against NumPy's 0.2 s). A getter that uses `self` only through its attributes
    is read as written; `u.size` is no array the object may hold."""
    converted, original, lifted = convert_both(GETTER, tmp_path, "getter")
    assert "_g_alpha = g.alpha" in converted.code
    assert "_g_dx" not in converted.code and "_g_n" not in converted.code  # (read in the loop: as written)
    assert "_g_alpha = g.alpha" in converted.code.split("def holds_it")[0]  # holds_it's `u` may be g.n
    assert "_g_alpha" not in converted.code.split("def holds_it")[1]
    assert agree(original, lifted, "sized", np.exp(-np.linspace(-2.0, 2.0, 8) ** 2), 20).startswith("Grid(n=8")
    agree(original, lifted, "read_in_loop", np.linspace(1.0, 2.0, 8), 5)
    # (holds_it: `g` passed whole, its `n` the written `u`: refused when called, as on main)
    compiled = np2ref.compile(original.sized, host_below=0, bitwise=True)
    run_both(original.sized, np.exp(-np.linspace(-2.0, 2.0, 8) ** 2), 20, compiled=compiled)
