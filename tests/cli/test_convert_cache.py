"""`np2ref convert` from the content cache (issue 43, np2ref/cache.py): an unchanged file under the
same config is not converted again; an edited file, an edited sibling module it imports helpers
from, another config or `--no-cache` is. Each test runs the real command in a fresh interpreter
with its own cache folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

GOOD = "import numpy as np\n\n\ndef g(u):\n    u[1:-1] += 0.5 * (u[2:] - u[:-2])\n    return u\n"
BAD = "import numpy as np\n\n\ndef f(a):\n    b = a[::2]\n    np.add.at(b, [0, 0], 1.0)\n    return b.sum() + undefined_name\n"

HELPER = "\n\ndef do_while(cond, n, body, state):\n    i = 0\n    while i < n and cond(state){extra}:\n" \
         "        state = body(state)\n        i += 1\n    return state\n"
SCRIPT = "import numpy as np\nimport bench\n\n\ndef cond(s):\n    return s[1] < 40\n\n\n" \
         "def body(s):\n    u, k = s\n    return 0.5 * (u + np.roll(u, 1)), k + 1\n\n\n" \
         "def run(u, n):\n    return bench.do_while(cond, n, body, (u, 0))\n"


def _convert(*args, cwd: Path, cache: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NP2REF_CACHE_DIR": str(cache), "NP2REF_NO_CACHE": "0"}
    return subprocess.run([sys.executable, "-m", "np2ref.cli", "convert", "--force", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json"))


def test_an_unchanged_file_is_converted_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "a.py").write_text(GOOD)
    first = _convert("a.py", "-o", "out.py", cwd=tmp_path, cache=cache)
    written = (tmp_path / "out.py").read_text()
    assert first.returncode == 0 and "@npr_jit" in written
    (entry,) = _entries(cache)
    # the entry is what the next run writes: mark it, and the mark comes back without a conversion
    stored = json.loads(entry.read_text())
    stored["code"] = stored["code"].replace("def g(", "def FROM_THE_CACHE(")
    entry.write_text(json.dumps(stored))
    assert _convert("a.py", "-o", "out.py", cwd=tmp_path, cache=cache).returncode == 0
    assert "def FROM_THE_CACHE(" in (tmp_path / "out.py").read_text()
    assert _convert("--no-cache", "a.py", "-o", "out.py", cwd=tmp_path, cache=cache).returncode == 0
    assert (tmp_path / "out.py").read_text() == written
    # another config (the standalone runtime) is another entry, not the marked one
    assert _convert("--standalone", "a.py", "-o", "out.py", cwd=tmp_path, cache=cache).returncode == 0
    assert "np2ref_rt" in (tmp_path / "out.py").read_text() and len(_entries(cache)) == 2


def test_a_refused_file_is_refused_again_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "a.py").write_text(BAD)
    first = _convert("a.py", "-o", "out.py", cwd=tmp_path, cache=cache)
    second = _convert("a.py", "-o", "out.py", cwd=tmp_path, cache=cache)
    assert first.returncode == second.returncode == 1 and "NPR" in first.stderr + first.stdout
    assert (first.stdout, first.stderr) == (second.stdout, second.stderr)
    assert len(_entries(cache)) == 1 and not (tmp_path / "out.py").exists()


def test_an_edited_sibling_module_is_read_again(tmp_path):
    # bench.do_while is copied into the conversion (frontend/imported.py) while it reads only its
    # parameters; once it reads a name of its own module it stays a call np2ref cannot see into
    cache = tmp_path / "cache"
    (tmp_path / "s.py").write_text(SCRIPT)
    (tmp_path / "bench.py").write_text("import numpy as np\n" + HELPER.format(extra=""))
    assert _convert("s.py", "-o", "out.py", cwd=tmp_path, cache=cache).returncode == 0
    assert "def bench_do_while(" in (tmp_path / "out.py").read_text()
    (tmp_path / "bench.py").write_text("import numpy as np\nTOL = 1.0\n" + HELPER.format(extra=" > TOL"))
    _convert("s.py", "-o", "out.py", cwd=tmp_path, cache=cache)
    uncached = _convert("--no-cache", "s.py", "-o", "fresh.py", cwd=tmp_path, cache=cache)
    assert "def bench_do_while(" not in (tmp_path / "fresh.py").read_text(), uncached.stderr
    assert (tmp_path / "out.py").read_text().replace("out.py", "") == \
        (tmp_path / "fresh.py").read_text().replace("fresh.py", "")


def test_a_module_converted_in_parts_is_cached(tmp_path):
    # a module of 1,500 lines or more is converted in parts at -j 2 (split_convert.py); storing its
    # entry read the one-run result, which a conversion in parts never made: UnboundLocalError, exit 1
    step = "\n\ndef step_{k}(u):\n    u[1:-1] += 0.5 * (u[2:] - u[:-2])\n    v = u.copy()\n    v[::2] *= {k}.0\n" \
           "    return v\n"
    cache = tmp_path / "cache"
    (tmp_path / "big.py").write_text("import numpy as np\n" + "".join(step.format(k=k) for k in range(250)))
    first = _convert("-j", "2", "big.py", "-o", "out.py", cwd=tmp_path, cache=cache)
    assert first.returncode == 0, first.stderr
    written = (tmp_path / "out.py").read_text()
    (entry,) = _entries(cache)
    stored = json.loads(entry.read_text())
    assert written.startswith(stored["code"])  # (the file adds its sha256 line)
    stored["code"] = stored["code"].replace("def step_7(", "def FROM_THE_CACHE(")
    entry.write_text(json.dumps(stored))
    assert _convert("-j", "2", "big.py", "-o", "out.py", cwd=tmp_path, cache=cache).returncode == 0
    assert "def FROM_THE_CACHE(" in (tmp_path / "out.py").read_text()
