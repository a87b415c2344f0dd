"""`check --report --run`: a file counts as ready only when its converted script runs and prints
what the original prints.

The static report says which functions convert exactly; running the two scripts is what shows
that the converted program as a whole works (a driver that crashes, a missing import). Each
script runs in a subprocess from the original's folder (so its sibling imports resolve), with a
time limit; the outputs are compared as text with numbers equal to 1e-6 relative, 1e-12
absolute (a sum's order may differ on the last bits: docs/semantics.md).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def same_output(expected: str, got: str) -> bool:
    """The same text, numbers equal to 1e-6 relative (1e-12 absolute)."""
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", expected):
        return False
    return all(abs(float(a) - float(b)) <= 1e-12 + 1e-6 * abs(float(a))
               for a, b in zip(_NUMBER.findall(expected), _NUMBER.findall(got)))


def _run(script: Path, folder: Path, timeout: float) -> subprocess.CompletedProcess | str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")])))
    try:
        return subprocess.run([sys.executable, str(script)], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"ran past {timeout:.0f} s"


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no message"


def check(path: str, converted: str, timeout: float = 300.0) -> tuple[bool | None, str]:
    """(True: the converted script printed what the original printed; False: it failed or
    printed something else; None: the original does not run on its own), with what happened."""
    original = Path(path).resolve()
    folder = original.parent
    first = _run(original, folder, timeout)
    if isinstance(first, str) or first.returncode != 0:
        why = first if isinstance(first, str) else f"exit {first.returncode}: {_last_line(first.stderr)}"
        return None, f"the original does not run on its own ({why})"
    with tempfile.TemporaryDirectory(prefix="np2ref-run-") as tmp:
        script = Path(tmp) / original.name
        script.write_text(converted, encoding="utf-8")
        second = _run(script, folder, timeout)
    if isinstance(second, str):
        return False, f"the converted script {second}"
    if second.returncode != 0:
        return False, f"the converted script failed: {_last_line(second.stderr)}"
    if not same_output(first.stdout, second.stdout):
        return False, "the converted script printed something else than the original"
    return True, "the converted script prints what the original prints"
