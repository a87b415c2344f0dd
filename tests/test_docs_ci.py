"""docs/ci.md runs as written: its config is the project's pyproject.toml, and each `np2ref`
command in its bash blocks ends with the exit code its `# exit N` comment gives (conftest.run_cli:
in this process; the real command's exit status is tests/cli/test_cli_workflow.py's)."""

from __future__ import annotations

import re
import shlex

from conftest import ROOT, run_cli

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
    setup = run_cli("convert", "src/heat.py", "-o", "src/heat_ref.py", cwd=tmp_path)
    assert setup.returncode == 0, setup.stderr
    found = commands()
    assert len(found) >= 8
    for command, expected in found:
        argv = shlex.split(command)[1:]
        proc = run_cli(*argv, cwd=tmp_path)
        assert proc.returncode == expected, (command, proc.stdout, proc.stderr)
    assert (tmp_path / "report.json").exists()
    assert (tmp_path / "src" / "io_tools.py").read_text() == IO_TOOLS
