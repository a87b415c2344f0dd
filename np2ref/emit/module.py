"""Emit a converted module: imports, the pasted runtime, the user's code.

The converted file depends on jax and numpy only. The runtime helpers (`npr_*`) are pasted
between the user's imports and the rest of the module, under a header that says so.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import re

import libcst as cst

from . import jaxnames as J

MARKER = "# np2ref: converted"
_HERE = pathlib.Path(__file__).parent
RUNTIME_FILES = ("runtime.py", "shims.py", "entry.py", "python_loops.py")


@functools.cache
def runtime_source() -> str:
    """The runtime pasted into converted files (also exec'd by np2ref.compile)."""
    parts = []
    for name in RUNTIME_FILES:
        path = _HERE / name
        if path.exists():
            parts.append(path.read_text())
    return "\n\n".join(p.strip("\n") for p in parts) + "\n"


@functools.cache
def _runtime_units() -> tuple[tuple[frozenset, frozenset, str], ...]:
    """The runtime as top-level units: (names defined, names used, source text)."""
    units = []
    for text in (p.read_text() for p in (_HERE / n for n in RUNTIME_FILES) if p.exists()):
        lines = text.splitlines(keepends=True)
        for node in ast.parse(text).body:
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
            code = "".join(lines[start:node.end_lineno])
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                defined = {node.name}
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                defined = {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                defined = {n.id for t in getattr(node, "targets", [getattr(node, "target", None)])
                           if t is not None for n in ast.walk(t) if isinstance(n, ast.Name)}
            else:
                defined = set()
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            units.append((frozenset(defined), frozenset(used - defined), code))
    # A statement that defines nothing (a loop patching a class) travels with what it touches.
    runtime_names = frozenset().union(*(d for d, _, _ in units))
    return tuple((d or (u & runtime_names), u, c) for d, u, c in units)


def runtime_for(code: str) -> str:
    """Only the runtime units the converted code needs (and what those need), in file order."""
    units = _runtime_units()
    needed = set(re.findall(r"\b(?:_?npr_\w+|Npr\w+)\b", code))
    chosen: set[int] = set()
    changed = True
    while changed:
        changed = False
        for i, (defined, used, _) in enumerate(units):
            if i not in chosen and defined & needed:
                chosen.add(i)
                needed |= used
                changed = True
    return "\n\n".join(units[i][2].rstrip("\n") for i in sorted(chosen)) + "\n"


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
        parts.append(runtime_for(rest))
        parts.append("# ---- end of np2ref runtime ----\n\n")
    parts.append(rest.lstrip("\n") if with_runtime else "\n\n" + rest.lstrip("\n"))
    return "".join(parts)


LINE_MARK = re.compile(r"  # @L(\d+)$", re.M)


def strip_line_marks(code: str) -> str:
    return LINE_MARK.sub("", code)


def functions_source(module: cst.Module, functions: dict) -> str:
    """The converted functions alone, undecorated (np2ref.compile wraps them itself)."""
    parts = [module.code_for_node(stmt.with_changes(decorators=[], leading_lines=[]))
             for stmt in module.body if isinstance(stmt, cst.FunctionDef) and stmt.name.value in functions]
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def line_map(source: str) -> dict[int, int]:
    """exec line -> original line, from the `# @L<n>` marks (unmarked lines take the previous one)."""
    out, last = {}, 0
    for i, text in enumerate(source.splitlines(), 1):
        m = LINE_MARK.search(text)
        if m:
            last = int(m.group(1))
        out[i] = last
    return out
