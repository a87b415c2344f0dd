"""Read and parse a source file; every failure becomes a diagnostic, never a traceback."""

from __future__ import annotations

import ast
import os

import libcst as cst

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
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        sink.report("NPR001", f"cannot read {os.path.basename(path)}: not UTF-8 "
                    f"(byte {raw[exc.start]:#04x} at offset {exc.start})", Span(line, 1, line, 1),
                    hint="save the file as UTF-8")
        return None
    return text


def parse(text: str, sink: DiagnosticSink) -> cst.Module | None:
    """The libcst module, or None with an NPR002 diagnostic for a syntax error."""
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
