"""Higher-order helpers of a module np2ref can read, translated as the script's own.

    bench.py:                                   script.py, as np2ref reads it:
    def do_while(cond, n, body, state):         from bench import do_while
        i = 0                                   def run(u, n):
        while i < n and cond(state):                return do_while(cond, n, body, (u, 0))
            state = body(state)          ->     ...
            i += 1                              def do_while(cond, n, body, state):   # bench.py's
        return state                                ...

A function imported from a sibling module (`from bench import do_while`, or `import bench` and
`bench.do_while(...)`, bench.py in the script's folder) that calls one of its parameters (a
higher-order helper: the functions it is given are the script's, which np2ref translates) is
appended to the script's text, so the pipeline translates it as a same-module helper; a call
`bench.do_while(...)` reads `bench_do_while(...)` (same length: the columns stay). Diagnostics
in the copy point at the import.

Exact because the copy is the same code run with the same globals: it may read only its own
parameters and locals, builtins, and `np` where both modules bind it to numpy (anything else,
another of bench's names, a decorator, a nested function, `global`, is left as it was: the call
stays one np2ref cannot see into). Left alone too: a name the script binds otherwise, a helper
that calls none of its parameters (graph breaks handle those: host_steps.py).
"""

from __future__ import annotations

import builtins
import dataclasses
import os
import symtable

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..analysis.names import ImportMap
from ..analysis.nodes import run_visitor
from .files import sibling_files, sibling_folder


@dataclasses.dataclass(frozen=True)
class Pulled:
    text: str
    where: list  # pulled line -> (original line, columns moved right)


def has_sibling_import(text: str, filename: str) -> bool:
    """Whether the text imports, at the start of a line, a module with a file beside `filename`."""
    return bool(sibling_files(text, filename))


def pull_in(text: str, filename: str, module: cst.Module) -> Pulled | None:
    """The text with the readable modules' higher-order helpers it calls appended; None if none."""
    folder = sibling_folder(filename)
    if folder is None:
        return None
    wanted = _imported_calls(module)
    if not wanted:
        return None
    bound = _module_bound(module)
    numpy_names = _numpy_names(module)
    copies, renames = [], {}
    imports = _single_line_imports(module)
    dropped = {}  # line -> the names its import no longer binds
    for (source, name, local, dotted) in wanted:
        if local in bound or not dotted and local not in imports:
            continue
        helper = _helper(os.path.join(folder, source + ".py"), name, numpy_names)
        if helper is None:
            continue
        bound.add(local)
        copies.append(helper.with_changes(name=cst.Name(local), leading_lines=()))
        if dotted:
            renames[f"{source}.{name}"] = local
        else:  # the script's own def binds the name now (an import of it too would be two bindings)
            dropped.setdefault(imports[local][0], set()).add(local)
    if not copies:
        return None
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for old, new in renames.items():
        lines = [_rename_calls(line, old, new) for line in lines]
    for line, names in dropped.items():
        lines[line - 1] = _without(imports, line, names, lines[line - 1])
    anchor = _import_line(module, text)
    where = [(0, 0)] + [(n + 1, 0) for n in range(len(lines))]
    for copy in copies:
        code = ["\n", "\n"] + cst.Module([copy]).code.splitlines(keepends=True)
        lines += code
        where += [(anchor, 0)] * len(code)
    return Pulled("".join(lines), where)


def _single_line_imports(module: cst.Module) -> dict[str, tuple[int, cst.SimpleStatementLine, cst.ImportFrom]]:
    """Each name a one-line `from m import ...` statement (the only statement on its line) binds:
    (its line, the statement, the import)."""
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = {}
    for stmt in module.body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.ImportFrom)) or isinstance(stmt.body[0].names, cst.ImportStar):
            continue
        where = positions[stmt.body[0]]
        if where.start.line != where.end.line:
            continue
        for alias in stmt.body[0].names:
            found[alias.asname.name.value if alias.asname else alias.name.value] = (where.start.line, stmt, stmt.body[0])
    return found


def _without(imports, line: int, names: set[str], text: str) -> str:
    """The import line without `names` (a comment saying where they went, when none is left)."""
    _, stmt, node = next(v for v in imports.values() if v[0] == line)
    kept = [a for a in node.names if (a.asname.name.value if a.asname else a.name.value) not in names]
    indent = text[:len(text) - len(text.lstrip())]
    if not kept:
        return f"{indent}# np2ref: {', '.join(sorted(names))} of {cst.Module([]).code_for_node(node.module)}.py " \
               f"translated below\n"
    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    new = node.with_changes(names=kept, lpar=None, rpar=None) if node.lpar else node.with_changes(names=kept)
    return indent + cst.Module([]).code_for_node(stmt.with_changes(body=[new], leading_lines=())).lstrip()


def _imported_calls(module: cst.Module) -> list[tuple[str, str, str, bool]]:
    """(module name, function name, the name the copy takes, called dotted) for each function
    of a plain sibling module the script imports and calls."""
    froms, modules = {}, {}
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and not small.relative \
                    and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    local = alias.asname.name.value if alias.asname else alias.name.value
                    froms[local] = (small.module.value, alias.name.value)
            elif isinstance(small, cst.Import):
                for alias in small.names:
                    if isinstance(alias.name, cst.Name) and alias.asname is None:
                        modules[alias.name.value] = alias.name.value
    found = {}

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            f = node.func
            if isinstance(f, cst.Name) and f.value in froms:
                found[f.value] = (*froms[f.value], f.value, False)
            elif isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in modules:
                source = modules[f.value.value]
                found[f"{source}_{f.attr.value}"] = (source, f.attr.value, f"{source}_{f.attr.value}", True)
    run_visitor(module, Calls())
    return list(found.values())


def _helper(path: str, name: str, numpy_names: set[str]) -> cst.FunctionDef | None:
    """The module function `name` of the file at `path` if it is a higher-order helper that reads
    nothing of its module but numpy; else None."""
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        other = cst.parse_module(source)
        table = symtable.symtable(source, path, "exec")
    except (OSError, UnicodeDecodeError, SyntaxError, cst.ParserSyntaxError):
        return None
    defs = [s for s in other.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    if len(defs) != 1 or defs[0].decorators or defs[0].asynchronous or _nested(defs[0]):
        return None
    scope = next((t for t in table.get_children() if t.get_name() == name and t.get_type() == "function"), None)
    if scope is None:
        return None
    theirs = _numpy_names(other)
    params = set(scope.get_parameters())
    for sym in scope.get_symbols():
        if sym.is_global() or sym.is_declared_global() or sym.is_nonlocal():
            free = sym.get_name()
            if not (hasattr(builtins, free) and free not in _module_names(table)) \
                    and not (free in theirs and free in numpy_names):
                return None
    if not _calls_a_parameter(defs[0], params):
        return None
    return defs[0]


def _numpy_names(module: cst.Module) -> set[str]:
    return {n for n, q in ImportMap(module).aliases.items() if q == "numpy"}


def _module_names(table) -> set[str]:
    return {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}


def _nested(func: cst.FunctionDef) -> bool:
    found = []

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> None:
            found.append(node)

        def visit_Lambda(self, node) -> None:
            found.append(node)

        def visit_ClassDef(self, node) -> None:
            found.append(node)
    run_visitor(func.body, V())
    return bool(found)


def _calls_a_parameter(func: cst.FunctionDef, params: set[str]) -> bool:
    found = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in params:
                found.append(node)
    run_visitor(func.body, V())
    return bool(found)


def _module_bound(module: cst.Module) -> set[str]:
    """Names the script binds at module level other than by importing them."""
    bound = set()
    for stmt in module.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            bound.add(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                    targets = small.targets if isinstance(small, cst.Assign) else [small]
                    for t in targets:
                        target = t.target
                        for n in (target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]):
                            node = getattr(n, "value", n)
                            if isinstance(node, cst.Name):
                                bound.add(node.value)
        else:
            bound |= _all_names(stmt)  # (a compound statement: whatever it may bind)
    return bound


def _all_names(node) -> set[str]:
    found = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)
    run_visitor(node, V())
    return found


def _rename_calls(line: str, old: str, new: str) -> str:
    """`bench.do_while(` as `bench_do_while(` (the same length) outside strings and comments."""
    out, k = [], 0
    while True:
        j = line.find(old, k)
        if j < 0 or "#" in line[:j] or line[:j].count('"') % 2 or line[:j].count("'") % 2:
            return "".join(out) + line[k:]
        before = line[j - 1] if j else " "
        if before.isalnum() or before in "_.":
            out.append(line[k:j + len(old)])
        else:
            out.append(line[k:j] + new)
        k = j + len(old)


def _import_line(module: cst.Module, text: str) -> int:
    """The line of the script's first import: where diagnostics in the copies point."""
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith(("import ", "from ")):
            return n
    return 1
