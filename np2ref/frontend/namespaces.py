"""Array namespaces taken from the arrays, as NumPy imports, before analysis.

What: in a function, `xp = x.__array_namespace__()` -> `import numpy as xp`. Why: array-API style
code (scientific libraries that run on NumPy, CuPy and JAX alike) takes its namespace from its
arguments; np2ref translates NumPy programs, whose arrays' namespace is NumPy, so every later
stage reads `xp.zeros_like(x)` as `np.zeros_like(x)` and translates it as such. Exact: NumPy 2's
arrays answer `__array_namespace__()` with the numpy module itself; array-api-compat answers with
its NumPy wrapper, whose functions np2ref's table knows under NumPy 2's array-API names (a name
the table lacks is refused, NPR004, never guessed). A namespace passed in as an argument (`def
f(x, xp)`) is resolved when traced instead (rewrite/rules/calls.py, npr_xp).
"""

from __future__ import annotations

import libcst as cst

from ..analysis.names import ImportMap
from ..analysis.nodes import nodes_of
from .outs import Normalizer

def normalize_module(module: cst.Module) -> tuple[cst.Module, dict]:
    """(module, origin): the module with namespace bindings as NumPy imports (the same module
    object when it has none); origin maps each new node to the node it stands for."""
    imports = ImportMap.of(module)
    if not any(is_namespace_call(node.value) for node in nodes_of(module, cst.Assign)):
        return module, {}  # (a transformer over the module makes every node anew: a cost per line)
    fix = _Namespaces(imports)
    new = module.visit(fix)
    return (new, fix.origin) if fix.changed else (module, {})  # (libcst makes new nodes either way)


def is_namespace_call(value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call) or any(a.star for a in value.args):
        return False
    func = value.func
    return isinstance(func, cst.Attribute) and func.attr.value == "__array_namespace__" and not value.args


class _Namespaces(Normalizer):
    def __init__(self, imports: ImportMap):
        super().__init__(imports)
        self.depth = 0

    def visit_FunctionDef(self, node) -> bool:
        self.depth += 1
        return True

    def leave_FunctionDef(self, original, updated):
        self.depth -= 1
        return updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign):
        if self.depth == 0 or len(updated.targets) != 1 or not isinstance(updated.targets[0].target, cst.Name) \
                or not is_namespace_call(original.value):
            return updated
        name = updated.targets[0].target
        new = cst.Import(names=[cst.ImportAlias(name=cst.Name("numpy"), asname=cst.AsName(name=name))],
                         semicolon=updated.semicolon)
        self.changed = True
        return new
