"""Qualified NumPy names: which local spellings (`np.add.at`, `la.norm`, `zeros`) mean which
`numpy.*` object. Import-based; a name rebound locally shadows its import."""

from __future__ import annotations

import functools

import libcst as cst

from .nodes import nodes_of, visit_every, walk


def dotted(node: cst.BaseExpression) -> str | None:
    """`np.linalg.norm` -> "np.linalg.norm"; None for anything that is not a dotted name."""
    kind = type(node)  # (libcst's Name and Attribute have no subclasses: `is` skips ABC isinstance)
    if kind is cst.Name:
        return node.value
    if kind is cst.Attribute:
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def _module_name(node: cst.BaseExpression) -> str:
    return dotted(node) or ""


def _imported(stmt: cst.BaseSmallStatement) -> dict[str, str]:
    """{local name: qualified name} an import statement binds (nothing for other statements,
    star and relative imports)."""
    out: dict[str, str] = {}
    if isinstance(stmt, cst.Import):
        for alias in stmt.names:
            full = _module_name(alias.name)
            if alias.asname is not None:
                out[alias.asname.name.value] = full
            else:
                head = full.split(".")[0]
                out[head] = head
    elif isinstance(stmt, cst.ImportFrom) and stmt.module is not None and not stmt.relative \
            and not isinstance(stmt.names, cst.ImportStar):
        base = _module_name(stmt.module)
        for alias in stmt.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else dotted(alias.name)
            local = alias.asname.name.value if alias.asname is not None else name
            out[local] = f"{base}.{name}"
    return out


@functools.lru_cache(maxsize=8)
def _import_map(module: cst.Module) -> ImportMap:  # (libcst nodes hash by identity)
    return ImportMap(module)


def _module_aliases(module: cst.Module, aliases: dict[str, str]) -> dict[str, str]:
    """`xp = np` (or `la = np.linalg`) at module level, the name bound there once and nowhere
    else at module level: another name for the module (array-API style code picks its namespace
    so)."""
    counts: dict[str, int] = {}
    found: dict[str, str] = {}
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
            for t in targets:
                name = t.value if isinstance(t, cst.Name) else None
                counts[name] = counts.get(name, 0) + 1
                text = dotted(small.value) if isinstance(small, cst.Assign) and name is not None else None
                head = text.partition(".")[0] if text is not None else None
                if head in aliases and name not in aliases and _is_module_path(aliases[head], text):
                    found[name] = aliases[head] + text[len(head):]
        if not isinstance(stmt, cst.SimpleStatementLine):
            for node in walk(stmt) if isinstance(stmt, (cst.If, cst.For, cst.While, cst.With, cst.Try)) else ():
                if isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Name):
                    counts[node.target.value] = counts.get(node.target.value, 0) + 2
    declared = {n.name.value for node in nodes_of(module, cst.Global) for n in node.names}
    return {n: q for n, q in found.items() if counts.get(n) == 1 and n not in declared}


def _is_module_path(full: str, text: str) -> bool:
    """Whether `text` (dotted, starting at a name bound to the module `full`) names NumPy or one
    of its submodules, not a function of it."""
    import importlib
    qual = full + text[text.index("."):] if "." in text else full
    if qual != "numpy" and not qual.startswith("numpy."):
        return False
    try:
        return type(importlib.import_module(qual)).__name__ == "module"
    except ImportError:
        return False


_IMPORTS = (cst.Import, cst.ImportFrom)


def _function_imports(module: cst.Module) -> list[cst.BaseSmallStatement]:
    """The import statements inside the module's functions, at any depth."""
    found: dict[int, cst.BaseSmallStatement] = {}  # by id: a nested function's are met again
    for node in nodes_of(module, cst.FunctionDef):
        found.update((id(s), s) for s in nodes_of(node.body, _IMPORTS))
    return list(found.values())


class ImportMap:
    """Maps the module's local names to qualified names of numpy (and jax, to spot re-conversion).
    `ImportMap.of(module)` reuses the map of a module already read (each stage asks for it)."""

    @staticmethod
    def of(module: cst.Module) -> "ImportMap":
        return _import_map(module)

    def __init__(self, module: cst.Module):
        self.aliases: dict[str, str] = {}
        for stmt in module.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    self.aliases.update(_imported(small))
        # Imports inside functions (`import numpy as np` in a body) name the same modules; a
        # name imported as two different things is no import at all (np2ref then refuses its uses).
        inner: dict[str, str] = {}
        clash: set[str] = set()
        for node in _function_imports(module):
            for local, full in _imported(node).items():
                if self.aliases.get(local, full) != full or inner.get(local, full) != full:
                    clash.add(local)
                inner[local] = full
        self.aliases.update({k: v for k, v in inner.items() if k not in clash})
        for name in clash:
            self.aliases.pop(name, None)
        self.clashes = frozenset(clash)  # NPR024 at each use
        self.aliases.update(_module_aliases(module, self.aliases))

    def qualify(self, node: cst.BaseExpression, shadowed: frozenset[str] | set[str] = frozenset()) -> str | None:
        """The qualified name of a dotted expression, if it starts at an imported name."""
        text = dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        if head in shadowed or head not in self.aliases:
            return None
        full = self.aliases[head]
        return f"{full}.{rest}" if rest else full

    def qualify_numpy(self, node: cst.BaseExpression, shadowed=frozenset()) -> str | None:
        name = self.qualify(node, shadowed)
        return name if name is not None and (name == "numpy" or name.startswith("numpy.")) else None

    def numpy_aliases(self) -> list[str]:
        return [local for local, full in self.aliases.items() if full == "numpy"]


def bound_anywhere(module: cst.Module) -> frozenset[str] | None:
    """Every name the module binds anywhere (assignments at any depth, defs, classes, imports,
    parameters, loop and `except` targets) plus the builtins; None with a star import, where
    any name may exist. A name outside this set raises NameError wherever it is evaluated."""
    import builtins
    collect = _Bindings()
    visit_every(collect, module)
    if collect.star:
        return None
    return frozenset(collect.names | set(dir(builtins)) | {
        "__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__",
        "__annotations__"})


class _Bindings(cst.CSTVisitor):
    """The names bound anywhere in a tree (what Python's symbol table sees as stores). It reads
    every node (no visit method returns a value): nodes.visit_every runs it."""

    def __init__(self):
        self.names: set[str] = set()
        self.star = False

    def _targets(self, node) -> None:  # the plain names in a target (not inside a[i] or a.b)
        if isinstance(node, cst.Name):
            self.names.add(node.value)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for e in node.elements:
                self._targets(e.value)
        elif isinstance(node, cst.StarredElement):
            self._targets(node.value)

    def visit_AssignTarget(self, node) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node) -> None:
        self._targets(node.target)

    def visit_AugAssign(self, node) -> None:
        self._targets(node.target)

    def visit_For(self, node) -> None:
        self._targets(node.target)

    def visit_CompFor(self, node) -> None:
        self._targets(node.target)

    def visit_NamedExpr(self, node) -> None:
        self._targets(node.target)

    def visit_Del(self, node) -> None:
        self._targets(node.target)

    def visit_WithItem(self, node) -> None:
        if node.asname is not None:
            self._targets(node.asname.name)

    def visit_ExceptHandler(self, node) -> None:
        if node.name is not None:
            self._targets(node.name.name)

    visit_ExceptStarHandler = visit_ExceptHandler

    def visit_FunctionDef(self, node) -> None:
        self.names.add(node.name.value)

    visit_ClassDef = visit_FunctionDef

    def visit_Param(self, node) -> None:
        self.names.add(node.name.value)

    def visit_Import(self, node) -> None:
        if isinstance(node.names, cst.ImportStar):
            self.star = True
            return
        for alias in node.names:
            name = alias.asname.name.value if alias.asname is not None else dotted(alias.name)
            self.names.add(name.split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_Global(self, node) -> None:
        self.names.update(item.name.value for item in node.names)

    visit_Nonlocal = visit_Global

    def visit_MatchAs(self, node) -> None:
        if node.name is not None:
            self.names.add(node.name.value)

    visit_MatchStar = visit_MatchAs

    def visit_MatchMapping(self, node) -> None:
        if node.rest is not None:
            self.names.add(node.rest.value)
