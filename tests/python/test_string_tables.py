"""A module-level array of strings (`CHARS = np.array([".", "#", "~"])`, a falling-sand script's
characters for printing its grid) read by a function np2ref converts: NumPy gives the
characters, np2ref stopped with JAX's raw TypeError ("Error interpreting argument to stage as a
JAX value") from npr_get's jnp.asarray of the table, in np2ref.compile and in the converted
script alike. JAX arrays hold numbers and booleans: a function reading such a table stays NumPy
host code (NPR021 naming it; analysis/module_state.string_tables), and the converted script runs
it as NumPy does. Found by tests/third_party/scripts11/sand_water_ca.py (`show`)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import run_cli

CHARS = np.array([".", "#", "~"])


def labels(grid):
    return CHARS[grid]


def test_np2ref_compile_refuses_with_a_code():
    with pytest.raises(Exception) as info:
        np2ref.compile(labels, host_below=0)(np.array([[0, 1], [2, 0]]))
    assert "NPR021" in str(info.value) and "array of strings" in str(info.value)


SCRIPT = '''import numpy as np
CHARS = np.array([".", "#", "~", "X"])


def show(grid):
    for row in CHARS[grid]:
        print("".join(row))


def settle(grid):
    for i in range(grid.shape[0] - 1):
        fall = (grid[i] == 1) & (grid[i + 1] == 0)
        grid[i + 1] = np.where(fall, 1, grid[i + 1])
        grid[i] = np.where(fall, 0, grid[i])


grid = np.array([[1, 0, 1], [0, 2, 0], [0, 0, 3]])
settle(grid)
show(grid)
'''


def test_the_converted_script_runs_the_printing_function_as_numpy(tmp_path):
    src = tmp_path / "sand.py"
    src.write_text(SCRIPT)
    result = np2ref.convert_source(SCRIPT, "sand.py")
    assert result.ok and "show" in result.host and "settle" in result.functions
    out = tmp_path / "sand_ref.py"
    assert run_cli("convert", src, "-o", out, cwd=tmp_path).returncode == 0
    import subprocess
    import sys
    want = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, check=True).stdout
    got = subprocess.run([sys.executable, str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert got.stdout == want
