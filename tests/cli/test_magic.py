"""The `%%np2ref` cell magic, run in IPython's own test shell (IPython is the `notebook` extra)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("IPython", reason="IPython is not installed (pip install '.[notebook]')")
from IPython.testing.globalipapp import start_ipython  # noqa: E402

import np2ref  # noqa: E402

CELL = '''%%np2ref
def smooth(u):
    u[1:-1] = 0.5 * npx.sqrt(u[2:] * u[:-2])

def drain(u):
    while u[0] > 0:
        u = u[1:]
        u[0] -= 1.0

def show(u):
    print(u.sum(), file=sys.stderr)

WIDTH = 5
'''


@pytest.fixture(scope="module")
def ip():
    shell = start_ipython()
    shell.run_line_magic("load_ext", "np2ref")
    return shell


def test_cell_functions_compiled_refused_ones_kept(ip, capsys):
    # numpy under another name, imported in an earlier cell: the magic must still know it
    assert ip.run_cell("import sys\nimport numpy as npx").success
    result = ip.run_cell(CELL)
    assert result.success, result.error_in_exec
    out = capsys.readouterr().out
    assert "# np2ref: compiled smooth" in out
    assert "npr_at(u)[1:-1] = 0.5 * npr_np_sqrt(u[...][2:] * u[...][:-2])" in out
    assert "# np2ref: drain stays Python (refused" in out
    assert "# np2ref: show stays Python (host code: calls print())" in out
    assert ":5:5: NPR011 this `while` loop is not translated" in out and "<cell-" in out
    ns = ip.user_ns
    assert isinstance(ns["smooth"], np2ref.Compiled) and ns["smooth"].mutated == ("u",)
    assert not isinstance(ns["drain"], np2ref.Compiled) and callable(ns["drain"])
    assert ns["WIDTH"] == 5
    u = np.array([1.0, 4.0, 9.0, 16.0, 25.0])
    expected = u.copy()
    expected[1:-1] = 0.5 * np.sqrt(expected[2:] * expected[:-2])
    assert ns["smooth"](u) is None
    np.testing.assert_array_equal(u, expected)  # written back, as NumPy would
    assert u.dtype == np.float64


def test_quiet_and_unparsable_cells(ip, capsys):
    assert ip.run_cell("%%np2ref -q\ndef plain(n):\n    return n + 1\n").success
    out = capsys.readouterr().out
    assert "def plain" not in out and "np2ref" not in out  # nothing to translate, nothing said
    assert ip.user_ns["plain"](2) == 3
    ip.user_ns.pop("broken", None)
    assert ip.run_cell("%%np2ref\ndef broken(u:\n    pass\n").success
    out = capsys.readouterr().out
    assert "NPR002" in out and "<cell-" in out
    assert "broken" not in ip.user_ns


def test_importing_np2ref_does_not_import_ipython():
    code = "import sys, np2ref; print('IPython' in sys.modules, callable(np2ref.load_ipython_extension))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
