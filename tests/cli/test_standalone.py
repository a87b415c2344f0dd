"""Short converted files and `np2ref convert --standalone` (issue: the runtime is a package).

The converted file imports its helpers from np2ref.rt; with --standalone it imports them from
np2ref_rt, np2ref/rt copied beside it as a package, and runs where np2ref cannot be imported."""

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
    package = tmp_path / "np2ref_rt"
    assert sorted(p.name for p in package.glob("*.py")) == sorted(p.name for p in (ROOT / "np2ref" / "rt").glob("*.py"))
    assert (package / "core.py").read_text() == (ROOT / "np2ref" / "rt" / "core.py").read_text()
    assert "from np2ref_rt import" in out.read_text() and "np2ref.rt" not in out.read_text()
    assert len(out.read_text().splitlines()) < 80
    converted = subprocess.run([sys.executable, "-c", WITHOUT_NP2REF, str(out)], cwd=tmp_path,
                               capture_output=True, text=True, timeout=300)
    assert converted.returncode == 0, converted.stderr
    original = subprocess.run([sys.executable, "examples/heat_equation.py"], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
    assert converted.stdout == original.stdout and "sum" in original.stdout


def test_standalone_refreshes_its_own_copy_and_keeps_the_users_package(tmp_path):
    src = tmp_path / "s.py"
    src.write_text("import numpy as np\n\n\ndef f(u):\n    u[1:] += u[:-1]\n")
    package = tmp_path / "np2ref_rt"
    assert run_cli("convert", src, "--standalone", cwd=tmp_path).returncode == 0
    (package / "gone.py").write_text("# a module an earlier runtime had\n")
    assert run_cli("convert", src, "--standalone", cwd=tmp_path).returncode == 0
    assert not (package / "gone.py").exists() and (package / "core.py").exists()
    (package / "NP2REF_RUNTIME").unlink()  # now a package of the user's, by that name
    again = run_cli("convert", src, "--standalone", cwd=tmp_path)
    assert again.returncode != 0 and "not np2ref's standalone runtime" in again.stderr
