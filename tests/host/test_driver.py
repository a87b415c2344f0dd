"""Module-level driver loops: `convert` lifts those doing array work into compiled functions
(frontend/driver.py), so `python converted.py` does the original's job with its time loop
compiled; loops that print, or bind a name first used after them, stay NumPy."""

from __future__ import annotations

import subprocess
import sys

import libcst as cst
import pytest

import np2ref
from conftest import ROOT
from np2ref.frontend import driver

SCRIPT = ROOT / "tests" / "programs" / "driver_script.py"


@pytest.fixture(scope="module")
def converted():
    result = np2ref.convert_file(str(SCRIPT))
    assert result.ok, [d.short() for d in result.diagnostics]
    return result


def test_loops_doing_array_work_are_lifted_and_compiled(converted):
    code = converted.code
    # the module's literal constants (alpha, nt) are read as module names, known when traced, not passed
    assert "@npr_jit(mutated=('energy', 'u'), rebound=('energy',))\ndef _main_loop_22(energy, u):" in code
    assert "energy = _main_loop_22(energy, u)" in code
    assert "npr_for(npr_range(nt), _loop_t, energy)" in code  # the time loop is a lax loop
    # in the main block: the def goes before the block, the call stays where the loop was
    assert "def _main_loop_32(k, u):" in code and "    k, u = _main_loop_32(k, u)\n    report()" in code
    # the loop that prints stays NumPy host code, as written
    assert 'for t in range(3):\n    print("step", t, f"{u.sum():.10f}")' in code


def test_the_converted_script_does_the_same_job(converted, tmp_path):
    out = tmp_path / "driver_script_ref.py"
    out.write_text(converted.code)
    runs = [subprocess.run([sys.executable, str(p)], capture_output=True, text=True, cwd=ROOT, timeout=300)
            for p in (SCRIPT, out)]
    assert runs[1].returncode == 0, runs[1].stderr[-3000:]
    assert runs[0].stdout == runs[1].stdout and "report 16 0.1" in runs[0].stdout


def test_diagnostics_keep_the_users_line_numbers(converted):
    text = SCRIPT.read_text() + "\n\ndef noisy(x):\n    x[0] = 1.0\n    print(x, file=sys.stderr)\n"
    result = np2ref.convert_source(text, "driver_script.py")
    note = [d for d in result.diagnostics if d.code == "NPR021" and d.message.startswith("noisy()")]
    assert [(d.line, d.col) for d in note] == [(len(SCRIPT.read_text().splitlines()) + 5, 5)]  # the print to a file
    assert result.source == text


@pytest.mark.parametrize("text, why", [
    ("import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    if t:\n        w = u * 2\n    u[0] += 1\nprint(w)\n",
     "w is first bound in the loop, on some trips only, and read after it"),
    ("import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    if u[0] > 1:\n        break\n    w = u * 2\n    u[0] += 1\nprint(w)\n",
     "w is first bound in the loop, after a break, and read after it"),
    ("import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    print(t)\n", "no array work"),
    ('import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    u[0] += len("""a\nb""")\n',
     "a string over two lines would be indented"),
    ("import numpy as np\nu = np.zeros(6)\nv = u[1:]\nfor t in range(4):\n    u[0] += 1.0\n    v[1] += u[0]\n",
     "u and v share memory: passed together, the compiled call would refuse them (NPR206)"),
])
def test_loops_that_stay_numpy(text, why):
    assert driver.find_lifts(cst.parse_module(text)) == [], why


def test_a_loop_that_uses_a_list_is_never_lifted_whole():
    # a list would reach the compiled call as an array: only the array work between the
    # statements that use it may be compiled (tests/host/test_host_steps.py); here there is none
    text = "import numpy as np\nu = np.zeros(3)\nw = [1.0, 2.0]\nw.append(3.0)\nfor t in range(3):\n    u[0] += len(w + [t])\n"
    assert [lift.holds for lift in driver.find_lifts(cst.parse_module(text))] == [("w",)]
    result = np2ref.convert_source(text, "s.py")
    assert "_main_loop_5" not in (result.code or "") and "_step_" not in (result.code or "")


def test_a_lift_the_pipeline_refuses_is_dropped():
    text = "import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    u[0] += 1\n    if u[0] > 1:\n        del t\n"
    assert [lift.name for lift in driver.find_lifts(cst.parse_module(text))] == ["_main_loop_3"]
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_3" not in result.code and result.diagnostics == []


FIRST_BOUND = """import numpy as np
STEPS = 5
u = np.arange(8)
for t in range(STEPS):
    w = u * 2
    u[1:] += w[:-1] % 7
print(w.tolist(), u.tolist())
"""


def test_a_name_every_trip_binds_is_returned_when_the_loop_surely_runs(tmp_path):
    """`for t in range(STEPS)` with STEPS a module constant >= 1 binds w on every trip: the lift
    returns it (before, the loop stayed NumPy). The converted script prints what NumPy prints."""
    result = np2ref.convert_source(FIRST_BOUND, "s.py")
    assert result.ok and "w = _main_loop_4(u)" in result.code, result.code
    _prints_as_numpy(tmp_path, FIRST_BOUND, result.code)


@pytest.mark.parametrize("change", ["STEPS = 0\n", "def reset():\n    global STEPS\n    STEPS = 0\n\n"])
def test_a_count_that_may_change_makes_the_call_where_the_loop_makes_a_trip(change):
    """STEPS rebound, or declared `global` by a function that may set it to 0: the loop may make
    no trip, so w may be unbound after it (NumPy's NameError). The lift is made, its call only
    where `range(STEPS)` is not empty (frontend/lift_guard.py; before session 14: not lifted)."""
    text = FIRST_BOUND.replace("u = np.arange(8)\n", "u = np.arange(8)\n" + change)
    assert [lift.guard for lift in driver.find_lifts(cst.parse_module(text))] == ["range(STEPS)"]


def test_a_loop_that_may_make_no_trip_is_called_where_it_makes_one(tmp_path):
    text = "import numpy as np\nu = np.zeros(3)\nn = len(u) - 3\nfor t in range(n):\n    w = u * 2\n    u[0] += 1\nprint(w)\n"
    assert [lift.guard for lift in driver.find_lifts(cst.parse_module(text))] == ["range(n)"]
    for n in ("len(u) - 3", "len(u) - 1"):  # no trip (NumPy's NameError), two trips
        script = text.replace("len(u) - 3", n)
        result = np2ref.convert_source(script, "s.py")
        assert result.ok and "if len(range(n)) > 0:" in result.code
        runs = []
        for name, src in (("s.py", script), ("s_ref.py", result.code)):
            (tmp_path / name).write_text(src)
            runs.append(subprocess.run([sys.executable, str(tmp_path / name)], capture_output=True, text=True, cwd=ROOT))
        assert runs[0].stdout == runs[1].stdout and runs[0].returncode == runs[1].returncode
        assert ("NameError" in runs[0].stderr) == ("NameError" in runs[1].stderr) == (n == "len(u) - 3")


def _prints_as_numpy(tmp_path, text, code):
    """The script and its conversion, run: both succeed and print the same."""
    for name, src in (("s.py", text), ("s_ref.py", code)):
        (tmp_path / name).write_text(src)
    runs = [subprocess.run([sys.executable, str(tmp_path / name)], capture_output=True, text=True, cwd=ROOT)
            for name in ("s.py", "s_ref.py")]
    assert runs[0].returncode == 0 and runs[1].returncode == 0, runs[1].stderr[-2000:]
    assert runs[0].stdout == runs[1].stdout


def test_a_lifted_loop_that_would_run_as_python_is_dropped():
    """A loop with an `else:` stays a Python loop (rules/loops.py), so the lifted function would
    trace it once per trip (NPR033): the lift is dropped. (This test's loop was `u[0] += 1.0;
    u = u * 0.5`, a Python loop until a written array rebound in a loop became a lax loop,
    rt/rebinds.py: test_a_rebound_written_array_is_lifted_as_a_lax_loop.)"""
    text = ("import numpy as np\nu = np.zeros(4)\nfor t in range(100):\n    u[0] += 1.0\n    u = u * 0.5\n"
            "else:\n    u[1] = 2.0\nprint(u)\n")
    assert [lift.name for lift in driver.find_lifts(cst.parse_module(text))] == ["_main_loop_3"]
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_" not in result.code


def test_a_rebound_written_array_is_lifted_as_a_lax_loop(tmp_path):
    """`u` rebound to a new array and written, each of 300 trips: a lax loop on a loop-owned Ref
    (rt/rebinds.py), so the lift stays, and the script prints what NumPy prints."""
    text = ("import numpy as np\nu = np.ones(4)\nfor t in range(300):\n    u = u * 0.5 + 1.0\n    u[0] = 0.0\n"
            "print(u.tolist())\n")
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_3(u)" in result.code and "npr_for(" in result.code, result.code
    _prints_as_numpy(tmp_path, text, result.code)


def test_arrays_a_lifted_loop_only_reads_stay_constants_of_the_functions_reading_them():
    """W, a literal array the loop only reads, is read as a module name, not passed: it stays a
    constant of `scaled` (handed to the lifted call, it would count as state the call changes)."""
    text = ("import numpy as np\nW = np.array([1.0, 2.0, 3.0])\n\ndef scaled(x):\n    return x * W\n\n"
            "u = np.ones(3)\nfor t in range(3):\n    u[:] = scaled(u) + W\nprint(u)\n")
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_8(u)" in result.code and "scaled" not in result.host, result.host


def test_arrays_other_than_literals_are_passed_to_the_lifted_loop():
    """A computed array (of a size the conversion cannot know) is passed, not compiled into the
    program as a constant."""
    text = ("import numpy as np\nimg = np.ones((4, 4)) * 2.0\nout = np.zeros((4, 4))\n"
            "for k in range(3):\n    out += img * k\nprint(out.sum())\n")
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_4(img, out)" in result.code, result.code


def test_a_loop_with_blank_lines_above_it_is_lifted():
    # the loop's text was rendered with the blank line first, which failed the indentation check
    text = ("import numpy as np\nu = np.zeros(3)\nif __name__ == '__main__':\n    k = 0\n\n    # steps\n"
            "    while k < 3:\n        u[0] += 1\n        k += 1\n    print(u, k)\n")
    assert [(lift.name, lift.start, lift.params) for lift in driver.find_lifts(cst.parse_module(text))] == [
        ("_main_loop_7", 7, ("k", "u"))]
    result = np2ref.convert_source(text, "s.py")
    assert "    k = 0\n\n    # steps\n    k = _main_loop_7(k, u)\n    print(u, k)\n" in result.code


def test_a_lift_whose_loop_would_run_as_a_python_loop_is_dropped():
    # a loop with an `else:` stays Python (NPR033): jit would trace its 300 passes one by one
    text = ("import numpy as np\nu = np.ones(4)\nfor t in range(300):\n    u = u * 0.5 + 1.0\n    u[0] = 0.0\n"
            "else:\n    u[1] = 2.0\nprint(u)\n")
    assert [lift.name for lift in driver.find_lifts(cst.parse_module(text))] == ["_main_loop_3"]
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_3" not in result.code and result.diagnostics == []
