"""Short converted files and `np2ref convert --standalone` (issue: the runtime is a package).

The converted file imports its helpers from np2ref.rt; with --standalone it imports them from
np2ref_rt.py, written beside it, and runs where np2ref cannot be imported."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT, run_cli

EXAMPLES = ("heat_equation", "particle_deposition", "lattice_boltzmann", "diffusion_inverse", "gray_scott")
WITHOUT_NP2REF = "import runpy, sys; sys.modules['np2ref'] = None; runpy.run_path(sys.argv[1], run_name='__main__')"


@pytest.mark.parametrize("stem", EXAMPLES)
def test_converted_examples_are_short(stem):
    original = (ROOT / "examples" / f"{stem}.py").read_text().splitlines()
    converted = (ROOT / "examples" / f"{stem}_ref.py").read_text().splitlines()
    assert len(converted) <= 1.3 * len(original) + 10, (len(converted), len(original))
    assert not any("jax_enable_x64" in line for line in converted)  # x64 is scoped to the calls
    assert any(line.startswith("from np2ref.rt import") for line in converted)


def test_standalone_pair_runs_without_np2ref(tmp_path):
    out = tmp_path / "heat_ref.py"
    done = run_cli("convert", "examples/heat_equation.py", "-o", out, "--standalone", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "np2ref_rt.py").exists()
    assert "from np2ref_rt import" in out.read_text() and "np2ref.rt" not in out.read_text()
    assert len(out.read_text().splitlines()) < 80
    converted = subprocess.run([sys.executable, "-c", WITHOUT_NP2REF, str(out)], cwd=tmp_path,
                               capture_output=True, text=True, timeout=300)
    assert converted.returncode == 0, converted.stderr
    original = subprocess.run([sys.executable, "examples/heat_equation.py"], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
    assert converted.stdout == original.stdout and "sum" in original.stdout


def test_no_two_runtime_modules_define_one_name_differently():
    """The standalone runtime is np2ref/rt's modules in one namespace: a name two of them define
    (differently) would leave one module calling the other's function. dots.py's start-index
    helper took core.py's `_npr_operand` there, and the heat example's standalone pair failed."""
    import ast
    found: dict[str, list] = {}
    for path in sorted((ROOT / "np2ref" / "rt").glob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.parse(path.read_text()).body:
            names = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else \
                [t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign) else []
            for name in names:
                found.setdefault(name, []).append((path.name, ast.dump(node)))
    clashes = {name: [m for m, _ in defs] for name, defs in found.items()
               if len({m for m, _ in defs}) > 1 and len({d for _, d in defs}) > 1}
    assert not clashes, clashes
