"""`np2ref check` at a linter's speed (issue 43): the content cache and files across processes.
Each test runs the real command in a fresh interpreter (what pre-commit runs), with its own cache
folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from np2ref import batch

BAD = "import numpy as np\n\n\ndef f(a):\n    b = a[::2]\n    np.add.at(b, [0, 0], 1.0)\n    return b.sum() + undefined_name\n"
GOOD = "import numpy as np\n\n\ndef g(u):\n    u[1:-1] += 0.5 * (u[2:] - u[:-2])\n    return u\n"


def _check(*args, cwd: Path, cache: Path, env=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NP2REF_CACHE_DIR": str(cache), "NP2REF_NO_CACHE": "0", **(env or {})}
    return subprocess.run([sys.executable, "-m", "np2ref.cli", "check", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json"))


def test_an_unchanged_file_is_answered_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "a.py").write_text(BAD)
    first = _check("a.py", cwd=tmp_path, cache=cache)
    assert first.returncode == 1 and "NPR" in first.stdout
    (entry,) = _entries(cache)
    # the entry is what the next run reports: mark it, and the mark comes back without analysis
    items = json.loads(entry.read_text())
    items[0]["message"] = "FROM THE CACHE"
    entry.write_text(json.dumps(items))
    second = _check("a.py", cwd=tmp_path, cache=cache)
    assert "FROM THE CACHE" in second.stdout and second.returncode == first.returncode
    bypass = _check("--no-cache", "a.py", cwd=tmp_path, cache=cache)
    assert bypass.stdout == first.stdout


def test_an_edited_file_is_analysed_again(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "a.py").write_text(BAD)
    first = _check("a.py", cwd=tmp_path, cache=cache)
    (tmp_path / "a.py").write_text(GOOD)
    second = _check("a.py", cwd=tmp_path, cache=cache)
    assert first.returncode == 1 and second.returncode == 0 and second.stdout == ""
    assert len(_entries(cache)) == 2


def test_files_in_parallel_report_in_the_order_of_one_process(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    padding = "# a comment line of the module, read and skipped by the analysis\n" * 180  # (a worker's share)
    for k in range(4):
        (src / f"m{k}.py").write_text(padding + (BAD.replace("def f", f"def f{k}") if k % 2 else GOOD))
    assert batch.workers(2, [p.stat().st_size for p in src.iterdir()]) == 2  # (a pool, not one process)
    one = _check("--jobs", "1", "src", cwd=tmp_path, cache=tmp_path / "c1", env={"NP2REF_NO_CACHE": "1"})
    two = _check("--jobs", "2", "src", cwd=tmp_path, cache=tmp_path / "c2")
    cached = _check("--jobs", "2", "src", cwd=tmp_path, cache=tmp_path / "c2")
    assert one.returncode == two.returncode == cached.returncode == 1
    assert one.stdout and one.stdout == two.stdout == cached.stdout
    assert not _entries(tmp_path / "c1")  # NP2REF_NO_CACHE=1: nothing written


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    (tmp_path / "a.py").write_text(BAD)
    r = _check("a.py", cwd=tmp_path, cache=blocked)
    assert r.returncode == 1 and "NPR" in r.stdout and r.stderr == ""
