"""The `np2ref` command: exit codes, output files, and bad input that never loses anything."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from np2ref.cli import main

GOOD = "import numpy as np\n\n\ndef scale(u, k):\n    u[1:] *= k\n    return u.sum()\n"
BAD = "import numpy as np\n\n\ndef f(u):\n    for i in range(3):\n        del u\n"


def run(*argv, capsys=None):
    code = main([str(a) for a in argv])
    out = capsys.readouterr() if capsys else None
    return code, out


def test_convert_file_writes_beside_source(tmp_path, capsys):
    src = tmp_path / "model.py"
    src.write_text(GOOD)
    code, out = run("convert", src, capsys=capsys)
    assert code == 0
    written = (tmp_path / "model_ref.py").read_text()
    assert "npr_at(u)[1:] *= k" in written and src.read_text() == GOOD
    compile(written, "model_ref.py", "exec")


def test_convert_stdout_and_diff(tmp_path, capsys):
    src = tmp_path / "m.py"
    src.write_text(GOOD)
    assert run("convert", src, "--stdout", capsys=capsys)[1].out.startswith("# np2ref: converted")
    code, out = run("convert", src, "--diff", capsys=capsys)
    assert code == 0 and "+    npr_at(u)[1:] *= k" in out.out
    assert not (tmp_path / "m_ref.py").exists()


def test_refused_file_writes_nothing_and_exits_1(tmp_path, capsys):
    src = tmp_path / "bad.py"
    src.write_text(BAD)
    code, out = run("convert", src, "-o", tmp_path / "out.py", capsys=capsys)
    assert code == 1
    assert "bad.py:6:9: NPR016" in out.err and "^" in out.err
    assert not (tmp_path / "out.py").exists()


def test_never_overwrites_source(tmp_path, capsys):
    src = tmp_path / "m.py"
    src.write_text(GOOD)
    code, out = run("convert", src, "-o", src, capsys=capsys)
    assert code == 2 and "refusing to write over the source" in out.err
    assert src.read_text() == GOOD


@pytest.mark.parametrize("content,needle", [
    (b"def f(:\n", "NPR002"),
    (b"\x00\x01binary", "NPR001"),
    (b"x = '\xff\xfe'\n", "NPR001"),
])
def test_bad_input_is_a_diagnostic(tmp_path, capsys, content, needle):
    src = tmp_path / "x.py"
    src.write_bytes(content)
    code, out = run("convert", src, capsys=capsys)
    assert code == 1 and needle in out.err and "Traceback" not in out.err
    assert not (tmp_path / "x_ref.py").exists()


def test_missing_path_and_missing_output_folder(tmp_path, capsys):
    assert run("convert", tmp_path / "nope.py", capsys=capsys)[0] == 2
    src = tmp_path / "m.py"
    src.write_text(GOOD)
    code, out = run("convert", src, "-o", tmp_path / "no" / "such" / "m.py", capsys=capsys)
    assert code == 2 and "does not exist" in out.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_output_folder(tmp_path, capsys):
    src = tmp_path / "m.py"
    src.write_text(GOOD)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        code, out = run("convert", src, "-o", ro / "m.py", capsys=capsys)
    finally:
        ro.chmod(0o700)
    assert code == 2 and "cannot write" in out.err  # an I/O error, not a finding


def test_folder_with_one_bad_file(tmp_path, capsys):
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "a.py").write_text(GOOD)
    (src / "sub" / "b.py").write_text(GOOD.replace("scale", "scale2"))
    (src / "bad.py").write_text(BAD)
    code, out = run("convert", src, "-o", tmp_path / "out", capsys=capsys)
    assert code == 1
    assert (tmp_path / "out" / "a.py").exists() and (tmp_path / "out" / "sub" / "b.py").exists()
    assert not (tmp_path / "out" / "bad.py").exists()
    assert "converted 2 of 3 files" in out.err


def test_check_text_and_json(tmp_path, capsys):
    src = tmp_path / "bad.py"
    src.write_text(BAD)
    code, out = run("check", src, capsys=capsys)
    assert code == 1 and out.out.strip() == f"{src}:6:9: NPR016 `del` is not translated"
    code, out = run("check", src, "--format", "json", capsys=capsys)
    assert json.loads(out.out)[0]["code"] == "NPR016"
    good = tmp_path / "good.py"
    good.write_text(GOOD)
    assert run("check", good, capsys=capsys)[0] == 0


def test_explain(capsys):
    code, out = run("explain", "NPR201", capsys=capsys)
    assert code == 0 and "Before:" in out.out and "After:" in out.out
    assert run("explain", "NPR999", capsys=capsys)[0] == 2


def test_console_script_usage_error():
    proc = subprocess.run([sys.executable, "-m", "np2ref.cli", "convert"], capture_output=True, text=True)
    assert proc.returncode == 2 and "usage" in proc.stderr


def test_the_command_does_not_import_jax():
    """`np2ref check` and `convert` only read and write source: importing the package and the
    command leaves jax unloaded (it cost every command about 3 s of CPU); `np2ref.compile` loads it."""
    code = ("import sys, np2ref, np2ref.cli; print('jax' in sys.modules); "
            "np2ref.compile; print('jax' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "True"]


def test_the_command_does_not_import_libcst_matchers(tmp_path):
    """libcst.matchers (about 0.15 s to import, in every process of a check) is left out of the
    command's imports: pick_uses' import of it made `check gen600.py` 25% slower (2.13 -> 2.66 s
    of CPU on a quiet machine, session 10)."""
    (tmp_path / "picks.py").write_text("import numpy as np\n\n\ndef f(u, t):\n"
                                       "    dt = min(0.1, 1.0 - t)\n    u[1:] -= dt * u[:-1]\n")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "np2ref", "check", "--no-cache", "picks.py"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert "np2ref.analysis.pick_uses" in proc.stderr, proc.stderr[-2000:]  # (the analysis was loaded)
    assert "libcst.matchers" not in proc.stderr


def test_large_module_converts(tmp_path):
    # Many functions in one file: each converted, none lost. (Conversion speed is a benchmark
    # figure, not an assertion: `time np2ref convert` on a 6,000-line module of this kind.)
    n = 150
    body = "".join(f"def f{i}(u, k):\n    u[1:-1] += k * (u[2:] - 2 * u[1:-1] + u[:-2])\n    u[0] = u[-1]\n\n\n"
                   for i in range(n))
    src = tmp_path / "big.py"
    src.write_text("import numpy as np\n\n\n" + body)
    out = tmp_path / "big_ref.py"
    assert main(["convert", str(src), "-o", str(out)]) == 0
    text = out.read_text()
    assert len(re.findall(r"^def f\d+\(u, k\):", text, re.M)) == n
    assert text.count("npr_at(u)[1:-1] +=") == n
