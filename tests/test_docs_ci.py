"""docs/ci.md runs as written: its config is the project's pyproject.toml, and each `np2ref`
command in its bash blocks ends with the exit code its `# exit N` comment gives."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "ci.md").read_text()

HEAT = "import numpy as np\n\n\ndef step(u, alpha):\n    u[1:-1] += alpha * (u[2:] - 2 * u[1:-1] + u[:-2])\n"
IO_TOOLS = ("import sys\n\nimport numpy as np\n\n\ndef show(u):\n    print(u, file=sys.stderr)\n\n\ndef load(path):\n"
            "    with open(path) as fh:\n        return np.array([float(x) for x in fh])\n")
LEGACY = ("import numpy as np\n\n\ndef settle(u):\n    for i in range(3):\n        del u\n\n\n"
          "def drain(u):\n    for i in range(3):\n        try:\n            u[i] = 1.0\n        finally:\n            pass\n")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, re.S)


def commands() -> list[tuple[str, int]]:
    out = []
    for block in blocks("bash"):
        for line in block.splitlines():
            m = re.match(r"(np2ref .*?)\s+# exit (\d)\b", line)
            if m:
                out.append((m.group(1), int(m.group(2))))
    return out


def test_ci_page_commands(tmp_path):
    (tmp_path / "pyproject.toml").write_text(blocks("toml")[0])
    for rel, text in {"src/heat.py": HEAT, "src/io_tools.py": IO_TOOLS, "legacy/old_solver.py": LEGACY,
                      ".venv/lib/site.py": LEGACY}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "np2ref.cli"]
    setup = subprocess.run([*base, "convert", "src/heat.py", "-o", "src/heat_ref.py"], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
    assert setup.returncode == 0, setup.stderr
    found = commands()
    assert len(found) >= 8
    for command, expected in found:
        argv = shlex.split(command)[1:]
        proc = subprocess.run([*base, *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == expected, (command, proc.stdout, proc.stderr)
    assert (tmp_path / "report.json").exists()
    assert (tmp_path / "src" / "io_tools.py").read_text() == IO_TOOLS
