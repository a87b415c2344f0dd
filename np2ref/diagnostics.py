"""Diagnostics are data: a code, a message, a span, notes and a hint.

Codes (stable; `np2ref explain CODE` prints the long form):
    NPR0xx  unsupported syntax or NumPy API (the fence and the read-side table)
    NPR1xx  rewrites that cannot be made exact
    NPR2xx  aliasing and Ref rules
    NPR3xx  verification
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Iterable


@dataclasses.dataclass(frozen=True)
class Span:
    line: int
    col: int  # 1-based, as editors and flake8 show it
    end_line: int
    end_col: int


@dataclasses.dataclass(frozen=True)
class Note:
    message: str
    span: Span | None = None


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    filename: str
    span: Span
    hint: str | None = None
    notes: tuple[Note, ...] = ()
    severity: str = "error"

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def col(self) -> int:
        return self.span.col

    @property
    def end_line(self) -> int:
        return self.span.end_line

    @property
    def end_col(self) -> int:
        return self.span.end_col

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def short(self) -> str:
        """The flake8/ruff one-liner: `path:line:col: NPR123 message`."""
        return f"{self.filename}:{self.line}:{self.col}: {self.code} {self.message}"

    def render(self, source: str | None) -> str:
        """The long form: the one-liner, the source line, a caret, notes and the hint."""
        out = [self.short()]
        lines = source.splitlines() if source is not None else []
        out += _excerpt(lines, self.span)
        for note in self.notes:
            where = f"{self.filename}:{note.span.line}:{note.span.col}: " if note.span else ""
            out.append(f"  note: {where}{note.message}")
            if note.span:
                out += _excerpt(lines, note.span, indent="    ")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "message": self.message,
            "filename": self.filename,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
            "severity": self.severity,
            "hint": self.hint,
            "notes": [
                {"message": n.message, "line": n.span.line if n.span else None,
                 "col": n.span.col if n.span else None}
                for n in self.notes
            ],
        }


def _excerpt(lines: list[str], span: Span, indent: str = "  ") -> list[str]:
    if not 1 <= span.line <= len(lines):
        return []
    text = lines[span.line - 1].expandtabs(1)
    width = max(1, (span.end_col - span.col) if span.end_line == span.line else len(text) - span.col + 1)
    return [f"{indent}{text}", f"{indent}{' ' * (span.col - 1)}{'^' * width}"]


class DiagnosticSink:
    """Collects diagnostics for one file; stages report into it instead of raising."""

    def __init__(self, filename: str, source: str):
        self.filename = filename
        self.source = source
        self.items: list[Diagnostic] = []

    def report(self, code: str, message: str, span: Span, *, hint: str | None = None,
               notes: Iterable[Note] = (), severity: str = "error") -> Diagnostic:
        diag = Diagnostic(code, message, self.filename, span, hint, tuple(notes), severity)
        if diag not in self.items:
            self.items.append(diag)
        return diag

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.line, d.col, d.code))


class PythonLoopWarning(UserWarning):
    """Warned when np2ref.compile traces a loop that runs as a Python loop (NPR033): exact, but
    tracing takes one copy of its body per iteration, so compile time grows with the trip count.
    The message gives the line, the trip count and the reason."""


class Np2RefError(Exception):
    """Raised by the Python API when a translation is refused or fails verification.

    `.diagnostics` holds the Diagnostic objects; str() shows each with its source line and caret.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic], source: str | None = None,
                 message: str | None = None):
        self.diagnostics = list(diagnostics)
        self.source = source
        rendered = "\n".join(d.render(source) for d in self.diagnostics)
        super().__init__("\n".join(x for x in (message, rendered) if x))


_SUPPRESS = re.compile(r"#\s*np2ref:\s*ignore(?:\[([^\]]*)\])?")


def suppressed(diagnostic: Diagnostic, lines: list[str]) -> bool:
    """Whether the diagnostic's line carries `# np2ref: ignore` (every code) or
    `# np2ref: ignore[NPR021, NPR033]` (those codes), as `# noqa` does for flake8."""
    if not 1 <= diagnostic.line <= len(lines):
        return False
    for m in _SUPPRESS.finditer(lines[diagnostic.line - 1]):
        if m.group(1) is None or diagnostic.code in {c.strip() for c in m.group(1).split(",")}:
            return True
    return False


def to_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2)
