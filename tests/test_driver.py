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
    assert "@npr_jit(mutated=('energy', 'u'))\ndef _main_loop_22(alpha, energy, nt, u):" in code
    assert "energy = _main_loop_22(alpha, energy, nt, u)" in code
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
    ("import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    w = u * 2\n    u[0] += 1\nprint(w)\n",
     "w is first bound in the loop and read after it"),
    ("import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    print(t)\n", "no array work"),
    ('import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    u[0] += len("""a\nb""")\n',
     "a string over two lines would be indented"),
    ("import numpy as np\nu = np.zeros(6)\nv = u[1:]\nfor t in range(4):\n    u[0] += 1.0\n    v[1] += u[0]\n",
     "u and v share memory: passed together, the compiled call would refuse them (NPR206)"),
    ("import numpy as np\nu = np.zeros(3)\nw = [1.0, 2.0]\nfor t in range(3):\n    u[0] += len(w + [t])\n",
     "a list would reach the compiled call as an array"),
])
def test_loops_that_stay_numpy(text, why):
    assert driver.find_lifts(cst.parse_module(text)) == [], why


def test_a_lift_the_pipeline_refuses_is_dropped():
    text = "import numpy as np\nu = np.zeros(3)\nfor t in range(3):\n    u[0] += 1\n    if u[0] > 1:\n        del t\n"
    assert [lift.name for lift in driver.find_lifts(cst.parse_module(text))] == ["_main_loop_3"]
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_3" not in result.code and result.diagnostics == []


def test_a_loop_with_blank_lines_above_it_is_lifted():
    # the loop's text was rendered with the blank line first, which failed the indentation check
    text = ("import numpy as np\nu = np.zeros(3)\nif __name__ == '__main__':\n    k = 0\n\n    # steps\n"
            "    while k < 3:\n        u[0] += 1\n        k += 1\n    print(u, k)\n")
    assert [(lift.name, lift.start, lift.params) for lift in driver.find_lifts(cst.parse_module(text))] == [
        ("_main_loop_7", 7, ("k", "u"))]
    result = np2ref.convert_source(text, "s.py")
    assert "    k = 0\n\n    # steps\n    k = _main_loop_7(k, u)\n    print(u, k)\n" in result.code


def test_a_lift_whose_loop_would_run_as_a_python_loop_is_dropped():
    # `u` is rebound and written in the loop (NPR033): jit would trace its 300 passes one by one
    text = ("import numpy as np\nu = np.ones(4)\nfor t in range(300):\n    u = u * 0.5 + 1.0\n    u[0] = 0.0\n"
            "print(u)\n")
    assert [lift.name for lift in driver.find_lifts(cst.parse_module(text))] == ["_main_loop_3"]
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_3" not in result.code and result.diagnostics == []
