"""Emit a converted module: the user's imports, one import of np2ref's runtime, the user's code.

The converted file imports the helpers it uses (`npr_*`) from the runtime package np2ref.rt;
with `runtime_module="np2ref_rt"` it imports them from the standalone copy of that package
(emit/standalone.py) copied beside it, for machines where np2ref is not installed.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import io
import re
import tokenize

import libcst as cst

from . import jaxnames as J
from ..policy import DtypePolicy

from ..frontend.files import MARKER  # noqa: F401  (one spelling, readable without libcst)
from ..analysis.nodes import run_visitor
from .codes import module_text
from . import RUNTIME_MODULE, RUNTIME_PACKAGE, STANDALONE_MODULE  # noqa: F401  (read here by their users)


@functools.cache
def runtime_names() -> frozenset[str]:
    """The public names of np2ref.rt (read from its source: emitting must not import JAX): the
    module-level `def`s, `class`es and `name = ...` of its files, found by a regular expression
    (parsing the 50 files cost a `check` 0.2 s; tests/pipeline/test_lint_speed.py compares the two)."""
    found = set()
    for path in RUNTIME_PACKAGE.glob("*.py"):
        found.update(a or b for a, b in _TOP_LEVEL_NAME.findall(path.read_text()))
    return frozenset(found)


_TOP_LEVEL_NAME = re.compile(r"^(?:def|class)\s+((?:npr_|Npr)\w*)|^((?:npr_|Npr)\w*)\s*=(?!=)", re.M)


def runtime_names_parsed() -> frozenset[str]:
    """runtime_names as Python's parser reads the files (what the test compares it with)."""
    names = set()
    for path in RUNTIME_PACKAGE.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return frozenset(n for n in names if n.startswith(("npr_", "Npr")))


def used_runtime_names(module: cst.Module, code: str | None = None) -> list[str]:
    """The runtime helpers a converted module calls, sorted. With the module's `code`, read
    from Python's own parse of it: every identifier libcst holds as a Name (attribute and
    parameter names, dotted import parts), at a tenth of a libcst visit's time."""
    known = runtime_names()
    if code is not None:
        if not known.intersection(_CANDIDATES.findall(code)):
            return []
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError):
            tree = None
        if tree is not None:
            return sorted(_known_names(known, tree))

    class Names(cst.CSTVisitor):
        def __init__(self):
            self.found: set[str] = set()

        def visit_Name(self, node: cst.Name) -> None:
            if node.value in known:
                self.found.add(node.value)

    visitor = Names()
    run_visitor(module, visitor)
    return sorted(visitor.found)


_CANDIDATES = re.compile(r"\b(?:npr_|Npr)\w*")


def _known_names(known: frozenset[str], tree: ast.AST) -> set[str]:
    return known.intersection(_identifiers(tree))


def _identifiers(tree: ast.AST):
    for node in ast.walk(tree):
        for field in ("id", "attr", "name", "arg", "asname", "module"):
            value = getattr(node, field, None)
            if isinstance(value, str):
                yield from value.split(".")
        names = getattr(node, "names", None)
        if isinstance(names, list) and names and isinstance(names[0], str):
            yield from names


def runtime_import(names: list[str], runtime_module: str = RUNTIME_MODULE, width: int = 100) -> str:
    """`from np2ref.rt import a, b, ...`, wrapped in parentheses past `width` columns."""
    if not names:
        return ""
    line = f"from {runtime_module} import {', '.join(names)}"
    if len(line) <= width:
        return line + "\n"
    rows, row = [], "   "
    for name in names:
        if len(row) + len(name) + 2 > width:
            rows.append(row.rstrip())
            row = "   "
        row += f" {name},"
    rows.append(row.rstrip())
    return f"from {runtime_module} import (\n" + "\n".join(rows) + "\n)\n"


_HEADER_REST = ("# every read is an explicit load (`u[...]`). Functions marked @npr_jit take NumPy arrays from",
                "# host code, run jit-compiled with NumPy's 64-bit types, and write back what they mutate.")


def header(filename: str) -> str:
    return (f"{MARKER} from {filename} by np2ref. Arrays that are written are jax.Ref buffers;\n"
            + "".join(line + "\n" for line in _HEADER_REST))


STAMP = "# np2ref: sha256 "  # the last line `np2ref convert` adds to a file it writes (frontend/files.py)


def _without_np2ref_lines(module: cst.Module) -> tuple[cst.Module, str | None]:
    """The module less what emit and `convert` add (the header comment, the runtime import, the
    hash line at the end), and the header's first line when it had one: emitting a converted
    module again gives the same text."""
    first = next((line.comment.value for line in module.header
                  if line.comment is not None and line.comment.value.startswith(MARKER)), None)
    kept = [line for line in module.header if line.comment is None or not (
        line.comment.value.startswith(MARKER) or line.comment.value in _HEADER_REST)]
    footer = [line for line in module.footer if line.comment is None or not line.comment.value.startswith(STAMP)]
    body = []
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine) and all(
                isinstance(s, cst.ImportFrom) and s.module is not None and not s.relative
                and cst.Module([]).code_for_node(s.module) in (RUNTIME_MODULE, STANDALONE_MODULE)
                for s in stmt.body):
            continue
        body.append(stmt)
    return module.with_changes(header=kept, body=body, footer=footer), first


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


@dataclasses.dataclass(frozen=True)
class Pieces:
    """A converted module's text in pieces (split.py joins the parts of a large module's): the
    header's first line when the module was converted before, the head (header, docstring and
    imports), each later statement's text with its leading lines' text, the footer's, and the
    runtime names each piece calls (None: read from the whole text)."""
    first: str | None
    head: str
    head_names: frozenset | None
    statements: tuple[tuple[str, str, frozenset | None], ...]  # (leading lines, text, names)
    footer: str


def pieces(module: cst.Module, policy: DtypePolicy = DtypePolicy(), options=None) -> Pieces | None:
    """The converted module in pieces; None for one without a trailing newline (libcst's codegen
    of the whole module, not of its statements, says where its last line ends)."""
    module, first = _without_np2ref_lines(module)
    if not module.has_trailing_newline:
        return None
    if policy.entry_options or options:
        module = module.visit(_EntryOptions({**policy.entry_options, **(options or {})}))
    cut = _import_lines(module)
    names_of = functools.partial(_known_names, runtime_names())
    head, head_names = module_text(module, module.header, module.body[:cut], [], names_of)
    statements = tuple((
        "".join(module.code_for_node(line) for line in getattr(stmt, "leading_lines", ())),
        *module_text(module, [], [stmt], [], names_of)) for stmt in module.body[cut:])
    return Pieces(first, head, head_names, statements, "".join(module.code_for_node(n) for n in module.footer))


def emit(module: cst.Module, filename: str, with_header: bool = True,
         runtime_module: str = RUNTIME_MODULE, policy: DtypePolicy = DtypePolicy(), options=None) -> str:
    """The converted module's text: header, the user's imports, jax/numpy and runtime imports,
    the user's code, each `@npr_jit` given the dtype policy's options and `options` (the
    config's `trace_budget=`)."""
    found = pieces(module, policy, options)
    if found is None:
        return _emit_whole(module, filename, with_header, runtime_module, policy, options)
    return assembled(found, filename, with_header, runtime_module, module)


def assembled(found: Pieces, filename: str, with_header: bool = True, runtime_module: str = RUNTIME_MODULE,
              module: cst.Module | None = None) -> str | None:
    """The module's text from its pieces (None when a piece's runtime names must be read from the
    whole text and no `module` is given to read them from)."""
    rest = "".join(text for _, text, _ in found.statements) + found.footer
    names = [found.head_names, *(n for _, _, n in found.statements)]
    if any(n is None for n in names) and module is None:
        return None
    used = sorted(frozenset().union(*names)) if all(n is not None for n in names) else \
        used_runtime_names(_without_np2ref_lines(module)[0], found.head + rest)
    return _joined(found.head, rest, used, found.first, filename, with_header, runtime_module)


def _joined(head: str, rest: str, used: list[str], first: str | None, filename: str, with_header: bool,
            runtime_module: str) -> str:
    existing = {line.strip() for line in head.splitlines()}
    added = [line for line in J.IMPORTS if line not in existing]
    # a converted file converted again keeps the name of its original in the header
    parts = [header(filename) if first is None else first + "\n" + "".join(line + "\n" for line in _HEADER_REST)
             ] if with_header else []
    parts.append(head.rstrip("\n") + "\n" if head.strip() else "")
    parts.append("".join(line + "\n" for line in added))
    parts.append(runtime_import(used, runtime_module))
    parts.append("\n\n" + rest.lstrip("\n"))
    return "".join(parts)


def _emit_whole(module: cst.Module, filename: str, with_header: bool, runtime_module: str,
                policy: DtypePolicy, options) -> str:
    """emit of a module without a trailing newline: libcst's codegen of the whole module."""
    module, first = _without_np2ref_lines(module)
    if policy.entry_options or options:
        module = module.visit(_EntryOptions({**policy.entry_options, **(options or {})}))
    cut = _import_lines(module)
    head = module.with_changes(body=module.body[:cut], footer=[]).code
    rest = module.with_changes(header=[], body=module.body[cut:]).code
    return _joined(head, rest, used_runtime_names(module, head + rest), first, filename, with_header, runtime_module)


class _EntryOptions(cst.CSTTransformer):
    """Each `@npr_jit` decorator given `options` as keywords (`dtype_policy="float32"`), in place
    of one it had of the same name."""

    def __init__(self, options: dict):
        super().__init__()
        self.options = options

    def leave_Decorator(self, original: cst.Decorator, updated: cst.Decorator) -> cst.Decorator:
        expr = updated.decorator
        call = expr if isinstance(expr, cst.Call) else cst.Call(expr)
        if not (isinstance(call.func, cst.Name) and call.func.value == J.ENTRY_DECORATOR):
            return updated
        kept = [a for a in call.args if a.keyword is None or a.keyword.value not in self.options]
        added = J.call(J.ENTRY_DECORATOR, **{k: cst.SimpleString(f'"{v}"') if isinstance(v, str)
                                              else cst.parse_expression(repr(v)) for k, v in self.options.items()}).args
        return updated.with_changes(decorator=call.with_changes(args=[*kept, *added]))


LINE_MARK = re.compile(r"  # @L(\d+)$", re.M)


def strip_line_marks(code: str) -> str:
    return LINE_MARK.sub("", code)


def functions_source(module: cst.Module, functions: dict) -> str:
    """The converted functions alone, undecorated (np2ref.compile wraps them itself)."""
    parts = [module.code_for_node(stmt.with_changes(decorators=[], leading_lines=[]))
             for stmt in module.body if isinstance(stmt, cst.FunctionDef) and stmt.name.value in functions]
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def line_map(source: str) -> dict[int, int]:
    """exec line -> original line, from the `# @L<n>` marks (unmarked lines take the previous one).
    A statement over several lines carries its mark on its last line: its other lines take that
    mark (an error raised in `return (a,\n b.tolist())` was placed at the line before it, or 0)."""
    lines = source.splitlines()
    marks = {i: int(m.group(1)) for i, text in enumerate(lines, 1) if (m := LINE_MARK.search(text))}
    for first, last in _statement_lines(source):
        if last in marks:
            for k in range(first, last):
                marks.setdefault(k, marks[last])
    out, last = {}, 0
    for i in range(1, len(lines) + 1):
        last = marks.get(i, last)
        out[i] = last
    return out


def _statement_lines(source: str) -> list[tuple[int, int]]:
    """(first line, last line) of each logical line that spans several physical lines."""
    spans, first = [], None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                continue
            if first is None:
                first = tok.start[0]
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if tok.start[0] > first:
                    spans.append((first, tok.start[0]))
                first = None
    except (tokenize.TokenError, SyntaxError):
        return spans
    return spans
