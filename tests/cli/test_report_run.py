"""`np2ref check --report --run`: a converted script that fails or prints something else is not
counted ready (the static report alone called such files 100 % ready)."""

from __future__ import annotations

import json
import textwrap

from conftest import run_cli

STEP = '''
import sys

import numpy as np


def step(u):
    u[1:-1] += 0.5 * (u[2:] - u[:-2])


if __name__ == "__main__":
    u = np.linspace(0.0, 1.0, 12)
    step(u)
    print(f"sum = {u.sum():.6f}")
'''


def _report(folder, *flags):
    done = run_cli("check", "--report", "json", *flags, folder, cwd=folder)
    assert done.returncode in (0, 1), done.stderr
    return {f["path"].split("/")[-1]: f for f in json.loads(done.stdout)["files"]}


def test_run_marks_converted_scripts_that_fail_or_differ(tmp_path):
    (tmp_path / "good.py").write_text(textwrap.dedent(STEP))
    # the same function; its driver fails once JAX is imported (as a converted script does)
    (tmp_path / "crash.py").write_text(textwrap.dedent(STEP).replace(
        '    print(f"sum', '    if "jax" in sys.modules:\n        raise RuntimeError("boom")\n    print(f"sum'))
    (tmp_path / "differs.py").write_text(textwrap.dedent(STEP).replace(
        'print(f"sum = {u.sum():.6f}")', 'print(f"sum = {u.sum():.6f}", "jax" in sys.modules)'))
    (tmp_path / "needs_args.py").write_text(textwrap.dedent(STEP).replace(
        '    u = np.linspace', '    n = int(sys.argv[1])\n    u = np.linspace'))
    static = _report(tmp_path)
    assert {name: f["ready_percent"] for name, f in static.items()} == {
        "good.py": 100.0, "crash.py": 100.0, "differs.py": 100.0, "needs_args.py": 100.0}
    ran = _report(tmp_path, "--run")
    assert ran["good.py"]["ready_percent"] == 100.0
    assert ran["good.py"]["run"] == "the converted script prints what the original prints"
    assert ran["crash.py"]["ready_percent"] == 0.0
    assert ran["crash.py"]["run"] == "the converted script failed: RuntimeError: boom"
    assert [fn["status"] for fn in ran["crash.py"]["function_status"]] == ["failed"]
    assert ran["differs.py"]["ready_percent"] == 0.0
    assert "printed something else" in ran["differs.py"]["run"]
    assert ran["needs_args.py"]["ready_percent"] == 100.0  # nothing to compare: the static verdict stands
    assert ran["needs_args.py"]["run"].startswith("the original does not run on its own (exit 1")
