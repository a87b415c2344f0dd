"""Read and parse a source file; every failure becomes a diagnostic, never a traceback."""

from __future__ import annotations

import ast
import codecs
import io
import os
import re
import tokenize

from ..diagnostics import DiagnosticSink, Span

START = Span(1, 1, 1, 1)


def read_text(path: str, sink: DiagnosticSink) -> str | None:
    """The file's text, or None with an NPR001 diagnostic (missing, a folder, binary, not UTF-8)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        sink.report("NPR001", f"cannot read {path}: no such file", START)
        return None
    except IsADirectoryError:
        sink.report("NPR001", f"cannot read {path}: it is a folder", START)
        return None
    except OSError as exc:
        sink.report("NPR001", f"cannot read {path}: {exc.strerror or exc}", START)
        return None
    if b"\x00" in raw:
        sink.report("NPR001", f"cannot read {path}: it is a binary file, not Python source", START)
        return None
    try:  # as Python reads it: a BOM or a PEP 263 coding line, else UTF-8
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:
        sink.report("NPR001", f"cannot read {os.path.basename(path)}: {exc.msg or exc}",
                    START, hint="fix the `# -*- coding: ... -*-` line")
        return None
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        name = "UTF-8" if encoding.startswith("utf-8") else encoding
        sink.report("NPR001", f"cannot read {os.path.basename(path)}: not {name} "
                    f"(byte {raw[exc.start]:#04x} at offset {exc.start})", Span(line, 1, line, 1),
                    hint="save the file as UTF-8, or declare its encoding (PEP 263)")
        return None
    return text


_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)


def encoding_of(text: str) -> str:
    """The encoding Python reads `text` in once written to a file: its PEP 263 coding line
    (in the first two lines), else UTF-8. Converted output is written in it."""
    for line in text.splitlines()[:2]:
        m = _CODING.match(line)
        if m:
            try:
                return codecs.lookup(m.group(1)).name
            except LookupError:
                break
        if line.strip() and not line.lstrip().startswith("#"):
            break
    return "utf-8"


def parse(text: str, sink: DiagnosticSink) -> "cst.Module | None":
    """The libcst module, or None with an NPR002 diagnostic for a syntax error."""
    import libcst as cst  # (here: reading a file, `check` from the cache, needs no libcst)

    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        line, col = exc.raw_line, exc.raw_column + 1
        message = exc.message.splitlines()[0] if exc.message else "invalid syntax"
        try:  # CPython's own parser places the caret where users expect it
            ast.parse(text)
        except SyntaxError as py_exc:
            line, col = py_exc.lineno or line, py_exc.offset or col
            message = py_exc.msg
        except (ValueError, RecursionError):
            pass
        sink.report("NPR002", f"syntax error: {message}", Span(line, col, line, col + 1))
        return None
    except Exception as exc:  # libcst raises a few other errors on odd input (e.g. bad indentation)
        sink.report("NPR002", f"syntax error: {exc}".splitlines()[0], START)
        return None
