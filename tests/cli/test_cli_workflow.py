"""The `np2ref` console script in a temporary project, as a team's CI runs it: `..` paths and
dot-folders, a virtual environment inside, .gitignore, [tool.np2ref] config, suppression
comments, overwrite protection, --partial, --check, and one exit-code table (0 ok, 1 findings,
2 usage or I/O error). The command runs as np2ref.cli.main in this process (conftest.run_cli; with
NP2REF_TEST_SUBPROCESS=1 as a real subprocess), and as a real subprocess where the process is the
point: its exit status, and colour on a terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli, run_cli_process

GOOD = "import numpy as np\n\n\ndef scale(u, k):\n    u[1:] *= k\n    return u.sum()\n"
BAD = "import numpy as np\n\n\ndef f(u):\n    for i in range(3):\n        del u\n"
HOST = "import numpy as np\nfrom scipy.ndimage import laplace\n\n\ndef smooth(u):\n    u += laplace(u)\n"
MIXED = ("import numpy as np\n\n\ndef scale(u, k):\n    u[1:] *= k\n    return u.sum()\n\n\n"
         "def clip_first(u, n):\n    for i in range(n):\n        tmp = u[i]\n        del tmp\n        if i > 2:\n            break\n"
         "        u[i] = 0.0\n"
         "    return scale(u, 2.0)\n")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def proj(tmp_path) -> Path:
    """A project under a dot-folder, like ~/.local/...: src/ with one refused file and one good
    one, tools/ to run from, a venv and a __pycache__ inside src/ that must not be read."""
    root = tmp_path / ".local" / "proj"
    write(root / "src" / "bad.py", BAD)
    write(root / "src" / "good.py", GOOD)
    (root / "tools").mkdir()
    write(root / "src" / "venv" / "pyvenv.cfg", "home = /usr/bin\n")
    write(root / "src" / "venv" / "lib" / "pkg.py", BAD)
    write(root / "src" / "__pycache__" / "junk.py", BAD)
    return root


def test_dotdot_and_dot_parent_paths_are_read(proj):
    r = run_cli("check", "../src", cwd=proj / "tools")
    assert r.returncode == 1 and r.stdout.strip() == "../src/bad.py:6:9: NPR016 `del` is not translated"
    r = run_cli("check", "--report", "--fail-under", "99", "../src", cwd=proj / "tools")
    assert r.returncode == 1 and "TOTAL" in r.stdout and "under --fail-under 99" in r.stderr
    assert "bad.py" in r.stdout and "good.py" in r.stdout and "venv" not in r.stdout
    r = run_cli("check", ".", cwd=proj / "src")  # "." itself, and the dot-folder above it
    assert r.returncode == 1 and "bad.py:6:9: NPR016" in r.stdout and "venv" not in r.stdout
    out = proj / "out"
    r = run_cli("convert", "../src", "-o", out, cwd=proj / "tools")
    assert r.returncode == 1 and "converted 1 of 2 files" in r.stderr
    assert sorted(p.name for p in out.rglob("*.py")) == ["good.py"]


def test_the_command_exits_as_main_returns(proj):
    """The real console script: each exit status, and the same output as main in this process
    (argparse's usage error: tests/cli/test_cli.py::test_console_script_usage_error)."""
    for args, status in ((["check", "../src/good.py"], 0), (["check", "../src"], 1), (["check", "../nope"], 2)):
        real, here = run_cli_process(*args, cwd=proj / "tools"), run_cli(*args, cwd=proj / "tools")
        assert real.returncode == here.returncode == status, (args, real.stderr)
        assert (real.stdout, real.stderr) == (here.stdout, here.stderr), args


def test_nothing_read_is_never_success(proj, tmp_path):
    (proj / "empty").mkdir()
    write(proj / "hidden_only" / ".cache" / "x.py", BAD)
    for args in (["check", "../empty"], ["check", "--report", "--fail-under", "0", "../empty"],
                 ["check", "../hidden_only"], ["convert", "../empty", "-o", tmp_path / "o"]):
        r = run_cli(*args, cwd=proj / "tools")
        assert r.returncode == 2 and "no Python files found under" in r.stderr, args
    r = run_cli("check", "../nope", cwd=proj / "tools")  # a missing path is a usage error everywhere
    assert r.returncode == 2 and "no such file" in r.stderr
    r = run_cli("convert", "../nope.py", cwd=proj / "tools")
    assert r.returncode == 2


def test_exclude_and_gitignore(proj):
    (proj / ".git").mkdir()
    write(proj / ".gitignore", "# generated code\ngenerated/\n*_tmp.py\n")
    write(proj / "src" / "generated" / "g.py", BAD)
    write(proj / "src" / "scratch_tmp.py", BAD)
    write(proj / "src" / "legacy" / "old.py", BAD)
    write(proj / "src" / "node_modules" / "n.py", BAD)
    r = run_cli("check", "src", "--exclude", "legacy", "--exclude", "bad.py", cwd=proj)
    assert r.returncode == 0 and r.stdout == "", r.stdout
    r = run_cli("check", "src", cwd=proj)
    assert r.returncode == 1 and sorted(line.split(":")[0] for line in r.stdout.splitlines()) == \
        ["src/bad.py", "src/legacy/old.py"]
    r = run_cli("check", "src/generated/g.py", cwd=proj)  # a file named explicitly is always read
    assert r.returncode == 1


def test_notes_suppression_quiet_and_json(tmp_path):
    write(tmp_path / "host.py", HOST)
    src = write(tmp_path / "sup.py", BAD.replace("del u", "del u  # np2ref: ignore[NPR016]") + HOST.split("\n\n\n")[1]
                .replace("smooth", "smooth2").replace("laplace(u)", "laplace(u)  # np2ref: ignore"))
    r = run_cli("check", "host.py", cwd=tmp_path)
    assert r.returncode == 0
    assert r.stdout.strip() == "host.py:6:10: NPR021 note: smooth() stays NumPy host code: it calls laplace() from scipy"
    assert run_cli("check", "-q", "host.py", cwd=tmp_path).stdout == ""
    r = run_cli("check", src.name, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == "", r.stdout
    r = run_cli("check", "--format", "json", "host.py", cwd=tmp_path)
    assert json.loads(r.stdout)[0]["severity"] == "info"


def test_report_honesty(tmp_path):
    write(tmp_path / "pkg" / "host.py", HOST)
    write(tmp_path / "pkg" / "good.py", GOOD)
    r = run_cli("convert", "pkg/good.py", "-o", "pkg/good_ref.py", cwd=tmp_path)
    assert r.returncode == 0
    r = run_cli("check", "--report", "--format", "json", "pkg", cwd=tmp_path)  # json honoured
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    files = {Path(f["path"]).name: f for f in data["files"]}
    assert files["host.py"]["ready_percent"] == 0.0 and files["good.py"]["ready_percent"] == 100.0
    assert data["totals"]["ready_percent"] == 50.0
    assert [Path(p).name for p in data["converted_files_skipped"]] == ["good_ref.py"]
    r = run_cli("check", "--report", "pkg/host.py", "--fail-under", "50", cwd=tmp_path)
    assert r.returncode == 1 and "0%" in r.stdout.splitlines()[2]
    r = run_cli("check", "--report", "pkg", cwd=tmp_path)
    assert r.returncode == 0 and "Not counted: 1 file(s) np2ref wrote" in r.stdout


def test_convert_overwrites_only_its_own_unedited_output(tmp_path):
    write(tmp_path / "m.py", GOOD)
    mine = write(tmp_path / "mine.py", "# a file of mine\n")
    r = run_cli("convert", "m.py", "-o", "mine.py", cwd=tmp_path)
    assert r.returncode == 2 and "not overwriting" in r.stderr and mine.read_text() == "# a file of mine\n"
    assert run_cli("convert", "m.py", cwd=tmp_path).returncode == 0
    out = tmp_path / "m_ref.py"
    first = out.read_text()
    assert first.startswith("# np2ref: converted") and first.splitlines()[-1].startswith("# np2ref: sha256 ")
    assert run_cli("convert", "m.py", "--check", cwd=tmp_path).returncode == 0  # up to date
    assert run_cli("convert", "m.py", cwd=tmp_path).returncode == 0  # its own output: rewritten
    write(tmp_path / "m.py", GOOD.replace("k\n", "k + 1\n", 1))
    r = run_cli("convert", "m.py", "--check", cwd=tmp_path)
    assert r.returncode == 1 and "would convert m.py -> m_ref.py" in r.stderr and out.read_text() == first
    out.write_text(first.replace("return", "return 0 +"))  # edited by hand
    r = run_cli("convert", "m.py", cwd=tmp_path)
    assert r.returncode == 2 and "edited since" in r.stderr and "return 0 +" in out.read_text()
    assert run_cli("convert", "m.py", "--force", "-q", cwd=tmp_path).returncode == 0
    assert "k + 1" in out.read_text()
    write(tmp_path / "pkg" / "a.py", GOOD)
    write(tmp_path / "pkg_ref" / "a.py" / "x", "a folder where the output goes")
    r = run_cli("convert", "pkg", cwd=tmp_path)  # an output that cannot be written is exit 2
    assert r.returncode == 2 and "pkg_ref/a.py" in r.stderr


def test_partial_keeps_refused_functions_as_numpy(tmp_path):
    write(tmp_path / "mixed.py", MIXED)
    assert run_cli("convert", "mixed.py", cwd=tmp_path).returncode == 1
    assert not (tmp_path / "mixed_ref.py").exists()
    r = run_cli("convert", "mixed.py", "--partial", cwd=tmp_path)
    assert r.returncode == 1  # written, and still a finding: a function was refused
    assert "1 function(s) converted, 1 kept as NumPy host code" in r.stderr
    assert "clip_first: refused: NPR016 line 12" in r.stderr
    text = (tmp_path / "mixed_ref.py").read_text()
    assert "@npr_jit(mutated=('u',))\ndef scale(u, k):" in text
    assert "# np2ref: kept as NumPy host code -- refused: NPR016 line 12" in text
    kept = text[text.index("# np2ref: kept"):]
    assert "def clip_first(u, n):\n    for i in range(n):" in kept and "@npr_jit" not in kept
    original, partial = _load(tmp_path / "mixed.py"), _load(tmp_path / "mixed_ref.py")
    import numpy as np
    for fn in ("scale", "clip_first"):  # the kept host function calls the converted one
        a, b = np.arange(6.0), np.arange(6.0)
        args = (2.5,) if fn == "scale" else (5,)
        expected, got = getattr(original, fn)(a, *args), getattr(partial, fn)(b, *args)
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        np.testing.assert_array_equal(b, a)  # the mutation written back as NumPy does


def _load(path: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_wf_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_config_in_pyproject(tmp_path):
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n\n[tool.np2ref]\ninclude = ["src"]\n'
          'exclude = ["legacy"]\nignore = ["NPR021"]\ndtype_policy = "float32"\n')
    write(tmp_path / "src" / "host.py", HOST)
    write(tmp_path / "src" / "good.py", GOOD)
    write(tmp_path / "src" / "legacy" / "bad.py", BAD)
    write(tmp_path / "tools" / "bad.py", BAD)
    r = run_cli("check", cwd=tmp_path / "src")  # config found walking up; include read
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr
    assert run_cli("check", "../tools", cwd=tmp_path / "src").returncode == 1
    r = run_cli("convert", "src/good.py", "--stdout", cwd=tmp_path)
    assert '@npr_jit(mutated=(\'u\',), dtype_policy="float32")\ndef scale' in r.stdout
    write(tmp_path / "pyproject.toml", '[tool.np2ref]\ndtype_policy = "float16"\n')
    r = run_cli("check", "src", cwd=tmp_path)
    assert r.returncode == 2 and "dtype_policy must be one of" in r.stderr


def test_version_and_colour_on_a_terminal_only(tmp_path):
    r = run_cli("--version", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("np2ref 0.")
    write(tmp_path / "bad.py", BAD)
    assert "\033[" not in run_cli("check", "bad.py", cwd=tmp_path).stdout  # a pipe: no colour
    pty = pytest.importorskip("pty")
    for no_color, coloured in (("", True), ("1", False)):
        leader, follower = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": no_color, "TERM": "xterm"}
        proc = subprocess.run([sys.executable, "-m", "np2ref.cli", "check", "bad.py"], cwd=tmp_path, env=env,
                              stdout=follower, stderr=subprocess.PIPE, timeout=60)
        os.close(follower)
        out = os.read(leader, 4096).decode()
        os.close(leader)
        assert proc.returncode == 1 and "NPR016" in out and ("\033[" in out) == coloured


def test_docs_agree_with_behaviour(tmp_path):
    r = run_cli("explain", "NPR003", cwd=tmp_path)  # scipy calls stay host code (NPR021), not NPR003
    assert r.returncode == 0 and "stays NumPy host code (NPR021" in r.stdout and "scipy" not in r.stdout.split("Before:")[1]
    write(tmp_path / "host.py", HOST)
    write(tmp_path / "rel.py", "import numpy as np\nfrom .helpers import smooth\n\n\ndef step(u):\n    u += smooth(u)\n")
    r = run_cli("check", "host.py", "rel.py", cwd=tmp_path)
    assert "host.py:6:10: NPR021 note:" in r.stdout and "rel.py:6:10: NPR003 call to `smooth()`" in r.stdout
    block = "import sys, runpy; sys.modules['matplotlib'] = None; runpy.run_path(sys.argv[1], run_name='__main__')"
    proc = subprocess.run([sys.executable, "-c", block, str(ROOT / "examples" / "plot_results.py")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and 'pip install ".[docs]"' in proc.stderr


def test_verify_names_npr124_instead_of_a_failed_gradient(tmp_path):
    write(tmp_path / "wl.py", "import numpy as np\n\n\ndef relax(u, tol):\n    err = 1.0\n    while err > tol:\n"
          "        u[1:-1] = 0.5 * (u[2:] + u[:-2])\n        err = err * 0.5 + np.abs(u[1:-1]).max() * 0.0\n"
          "    return u.sum()\n\n\ndef make_inputs(size):\n    return (np.linspace(0.0, 1.0, 8), 0.3)\n")
    r = run_cli("verify", "wl.py::relax", "--examples", "2", "--transforms", "jit,grad", cwd=tmp_path)
    grad = next(line for line in r.stdout.splitlines() if line.startswith("grad"))
    assert grad.split()[1] == "skipped" and "NPR124" in grad and "inf" not in grad, r.stdout
    assert r.returncode == 0 and "verified: jit" in r.stdout
