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


def render_case(program: Program, outcome: Outcome, origin: str) -> str:
    """The regression file's text: a header, then the program."""
    details = "\n".join(f"#     {line}" for line in outcome.describe().splitlines()[:12])
    header = [
        "# np2ref-fuzz: open",
        f"# np2ref-fuzz-stage: {outcome.stage}",
        f"# found by: {origin}",
        "# expected: np2ref agrees with NumPy (result and every argument) or refuses with a diagnostic",
        "# got:",
        details,
    ]
    body = program.source()
    return "\n".join(header) + "\n" + body


def save(program: Program, outcome: Outcome, origin: str, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(program.source().encode()).hexdigest()[:10]
    path = directory / f"fuzz_{digest}.py"
    if not path.exists():
        path.write_text(render_case(program, outcome, origin))
    return path


def status(text: str) -> str:
    m = STATUS.search(text)
    return m.group(1) if m else "fixed"

