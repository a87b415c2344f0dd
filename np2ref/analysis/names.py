"""Qualified NumPy names: which local spellings (`np.add.at`, `la.norm`, `zeros`) mean which
`numpy.*` object. Import-based; a name rebound locally shadows its import."""

from __future__ import annotations

import libcst as cst


def dotted(node: cst.BaseExpression) -> str | None:
    """`np.linalg.norm` -> "np.linalg.norm"; None for anything that is not a dotted name."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def _module_name(node: cst.BaseExpression) -> str:
    return dotted(node) or ""


class ImportMap:
    """Maps the module's local names to qualified names of numpy (and jax, to spot re-conversion)."""

    def __init__(self, module: cst.Module):
        self.aliases: dict[str, str] = {}
        for stmt in module.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        full = _module_name(alias.name)
                        if alias.asname is not None:
                            self.aliases[alias.asname.name.value] = full
                        else:
                            head = full.split(".")[0]
                            self.aliases[head] = head
                elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
                    base = _module_name(small.module)
                    if isinstance(small.names, cst.ImportStar):
                        continue
                    for alias in small.names:
                        name = alias.name.value if isinstance(alias.name, cst.Name) else dotted(alias.name)
                        local = alias.asname.name.value if alias.asname is not None else name
                        self.aliases[local] = f"{base}.{name}"

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


def bound_anywhere(text: str) -> frozenset[str] | None:
    """Every name the module binds anywhere (assignments at any depth, defs, classes, imports,
    parameters, loop and `except` targets) plus the builtins; None with a star import, where
    any name may exist. A name outside this set raises NameError wherever it is evaluated."""
    import ast
    import builtins
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):  # libcst reads syntax this Python's ast may not
        return None
    names = set(dir(builtins)) | {"__name__", "__file__", "__doc__", "__spec__", "__loader__",
                                  "__package__", "__builtins__", "__annotations__"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.MatchAs) and node.name or isinstance(node, ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return frozenset(names)
