"""Module-wide facts: which functions are converted, which stay host code, and the effects
table of every converted function (a fixed point over calls between them)."""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from . import effects as fx
from .aliases import FunctionFacts, analyse_function
from .names import ImportMap, dotted
from .numpy_table import HOST_ONLY_PREFIXES

HOST_BUILTINS = frozenset({"print", "open", "input", "exit", "quit", "breakpoint"})
PURE_MODULES = frozenset({"math", "numpy"})


@dataclasses.dataclass
class ModuleFacts:
    imports: ImportMap
    functions: dict[str, FunctionFacts]      # converted functions
    host: dict[str, str]                      # host function name -> why it stays host code
    host_nodes: dict                           # host function name -> the call that makes it host
    module_globals: frozenset[str]
    positions: dict

    def effects(self) -> dict[str, fx.Effects]:
        return {n: fx.Effects(frozenset(f.mutated_params), f.returns_alias, f.params)
                for n, f in self.functions.items()}


def module_level_names(module: cst.Module) -> tuple[dict[str, cst.FunctionDef], frozenset[str]]:
    functions: dict[str, cst.FunctionDef] = {}
    names: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            functions[stmt.name.value] = stmt
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                targets = []
                if isinstance(small, cst.Assign):
                    targets = [t.target for t in small.targets]
                elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                    targets = [small.target]
                for t in targets:
                    _collect(t, names)
    return functions, frozenset(names - set(functions))


def _collect(t, out):
    if isinstance(t, cst.Name):
        out.add(t.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for e in t.elements:
            _collect(e.value, out)


def host_reason(func: cst.FunctionDef, imports: ImportMap) -> tuple[str, cst.CSTNode] | None:
    """Why a function must stay host (NumPy) code: I/O, printing, random set-up, other libraries."""
    found: list = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if found:
                return
            if isinstance(node.func, cst.Name) and node.func.value in HOST_BUILTINS:
                found.append((f"calls {node.func.value}()", node))
                return
            qual = imports.qualify(node.func)
            if qual is None:
                return
            if any(qual == p or qual.startswith(p + ".") or qual.startswith(p) for p in HOST_ONLY_PREFIXES):
                found.append((f"calls {dotted(node.func)}()", node))
            elif qual.split(".")[0] not in PURE_MODULES:
                found.append((f"calls {dotted(node.func)}() from {qual.split('.')[0]}", node))

    func.visit(V())
    return found[0] if found else None


def analyse_module(wrapper: MetadataWrapper) -> ModuleFacts:
    module = wrapper.module
    positions = wrapper.resolve(PositionProvider)
    imports = ImportMap(module)
    functions, module_globals = module_level_names(module)
    reasons = {n: r for n, f in functions.items() if (r := host_reason(f, imports))}
    host = {n: r[0] for n, r in reasons.items()}
    host_nodes = {n: r[1] for n, r in reasons.items()}
    changed = True
    while changed:  # a function that calls host code is host code
        changed = False
        for name, f in functions.items():
            if name in host:
                continue
            for callee in _called_names(f):
                if callee in host:
                    host[name] = f"calls host function {callee}()"
                    host_nodes[name] = f.name
                    changed = True
                    break
    converted = {n: f for n, f in functions.items() if n not in host}
    names = frozenset(converted)
    effects: dict[str, fx.Effects] = {}
    facts: dict[str, FunctionFacts] = {}
    for _ in range(20):  # effects of callees feed the callers: iterate to a fixed point
        facts = {n: analyse_function(f, imports, names, module_globals, effects, positions)
                 for n, f in converted.items()}
        new = {n: fx.Effects(frozenset(x.mutated_params), x.returns_alias, x.params) for n, x in facts.items()}
        if new == effects:
            break
        effects = new
    return ModuleFacts(imports, facts, host, host_nodes, module_globals, positions)


def _called_names(func: cst.FunctionDef) -> set[str]:
    out: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name):
                out.add(node.func.value)

    func.visit(V())
    return out
