"""Saved failing programs: tests/regressions/fuzz_<hash>.py, one module per minimal program.

Each file is a complete program (`f`, its helpers, `make_args`) with a header saying where it
came from and what differed. The expected behaviour is the same for every file: np2ref agrees
with NumPy on it, or refuses it with a diagnostic. A file saved by the fuzzer says
`# np2ref-fuzz: open`: the bug is not fixed yet, and tests/regressions/test_fuzz_regressions.py
expects it to fail (strictly, so the fix turns the test red until the line says `fixed`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .program import Program
from .runner import Outcome

STATUS = re.compile(r"^# np2ref-fuzz: (open|fixed)\b", re.M)
KIND = re.compile(r"^# np2ref-fuzz-kind: (.*)$", re.M)


def render_case(program: Program, outcome: Outcome, origin: str, kind: str = "") -> str:
    """The regression file's text: a header, then the program."""
    details = "\n".join(f"#     {line}" for line in outcome.describe().splitlines()[:12])
    header = [
        "# np2ref-fuzz: open",
        f"# np2ref-fuzz-stage: {outcome.stage}",
        f"# np2ref-fuzz-kind: {kind or outcome.signature}",
        f"# found by: {origin}",
        "# expected: np2ref agrees with NumPy (result and every argument) or refuses with a diagnostic",
        "# got:",
        details,
    ]
    body = program.source()
    return "\n".join(header) + "\n" + body


def save(program: Program, outcome: Outcome, origin: str, directory: Path, kind: str = "") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(program.source().encode()).hexdigest()[:10]
    path = directory / f"fuzz_{digest}.py"
    if not path.exists():
        path.write_text(render_case(program, outcome, origin, kind))
    return path


def status(text: str) -> str:
    m = STATUS.search(text)
    return m.group(1) if m else "fixed"



def saved_kinds(directory: Path) -> list[str]:
    """The failure kinds of the programs already saved in `directory` (one entry per file)."""
    kinds = []
    for path in sorted(directory.glob("fuzz_*.py")) if directory.is_dir() else []:
        m = KIND.search(path.read_text())
        if m:
            kinds.append(m.group(1).strip())
    return kinds
