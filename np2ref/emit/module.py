"""Emit a converted module: imports, the pasted runtime, the user's code.

The converted file depends on jax and numpy only. The runtime helpers (`npr_*`) are pasted
between the user's imports and the rest of the module, under a header that says so.
"""

from __future__ import annotations

import functools
import pathlib

import libcst as cst

from . import jaxnames as J

MARKER = "# np2ref: converted"
_HERE = pathlib.Path(__file__).parent
RUNTIME_FILES = ("runtime.py", "shims.py", "entry.py")


@functools.cache
def runtime_source() -> str:
    """The runtime pasted into converted files (also exec'd by np2ref.compile)."""
    parts = []
    for name in RUNTIME_FILES:
        path = _HERE / name
        if path.exists():
            parts.append(path.read_text())
    return "\n\n".join(p.strip("\n") for p in parts) + "\n"


def header(filename: str) -> str:
    return (f"{MARKER} from {filename} by np2ref. Arrays that are written are jax.Ref buffers;\n"
            "# every read is an explicit load (`u[...]`). 64-bit JAX types are turned on below so that\n"
            "# float64/int64 stay as in NumPy. Functions marked @npr_jit take NumPy arrays from host code,\n"
            "# run jit-compiled, and write back the arrays they mutate.\n")


def is_converted(text: str) -> bool:
    return MARKER in text[:2000]


def _import_lines(module: cst.Module) -> int:
    """Index of the first statement after the leading docstring and imports."""
    i = 0
    body = module.body
    while i < len(body):
        stmt = body[i]
        if isinstance(stmt, cst.SimpleStatementLine) and all(
                isinstance(s, (cst.Import, cst.ImportFrom)) or
                (isinstance(s, cst.Expr) and isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString)))
                for s in stmt.body):
            i += 1
            continue
        break
    return i


def emit(module: cst.Module, filename: str, with_runtime: bool = True) -> str:
    """The converted module's text: user imports, np2ref imports, runtime, user code."""
    cut = _import_lines(module)
    head = module.with_changes(body=module.body[:cut], footer=[]).code
    rest = module.with_changes(body=module.body[cut:], header=[]).code
    existing = {line.strip() for line in head.splitlines()}
    added = [line for line in J.IMPORTS if line not in existing]
    parts = []
    if with_runtime:
        parts.append(header(filename))
    parts.append(head.rstrip("\n") + "\n" if head.strip() else "")
    parts.append("\n".join(added) + "\n")
    if with_runtime:
        parts.append(J.ENABLE_X64 + "\n\n")
        parts.append("# ---- np2ref runtime: exact NumPy semantics for stores into jax.Ref (generated) ----\n")
        parts.append(runtime_source())
        parts.append("# ---- end of np2ref runtime ----\n\n")
    parts.append(rest.lstrip("\n") if with_runtime else "\n\n" + rest.lstrip("\n"))
    return "".join(parts)


def line_preserving(module: cst.Module, functions: dict, positions) -> str:
    """The converted functions alone, undecorated, each starting at its original line, so that
    tracebacks from `np2ref.compile` point at the user's own source lines."""
    lines: list[str] = []
    for stmt in module.body:
        if not isinstance(stmt, cst.FunctionDef) or stmt.name.value not in functions:
            continue
        original = functions[stmt.name.value].node
        start = positions[original].start.line + len(original.decorators)
        code = module.code_for_node(stmt.with_changes(decorators=[], leading_lines=[])).rstrip("\n")
        lines += [""] * max(0, start - 1 - len(lines))
        lines += code.splitlines()
    return "\n".join(lines) + "\n"
