"""Module-wide facts: which functions are converted, which stay host code, and the effects
table of every converted function (a fixed point over calls between them)."""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from . import containers, effects as fx
from .aliases import Collected, FunctionFacts, analyse_function
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
    plain: frozenset = frozenset()  # converted functions with no array work: left undecorated
    bound: frozenset | None = None  # names bound anywhere in the module (None: a star import)


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


def host_reason(calls: list[cst.Call], imports: ImportMap) -> tuple[str, cst.CSTNode] | None:
    """Why a function must stay host (NumPy) code: I/O, printing, random set-up, other libraries."""
    for node in calls:
        if isinstance(node.func, cst.Name) and node.func.value in HOST_BUILTINS:
            return f"calls {node.func.value}()", node
        qual = imports.qualify(node.func)
        if qual is None:
            continue
        if any(qual == p or qual.startswith(p + ".") or qual.startswith(p) for p in HOST_ONLY_PREFIXES):
            return f"calls {dotted(node.func)}()", node
        if qual.split(".")[0] not in PURE_MODULES:
            return f"calls {dotted(node.func)}() from {qual.split('.')[0]}", node
    return None


def _touches_arrays(col, imports: ImportMap, module_functions: set[str]) -> bool:
    """Whether np2ref has anything to do in a function: it uses NumPy, writes through a subscript
    or an `out=`/method, or calls another module function. A function that does none of these
    (a pure helper like `lap(u)` of slices and arithmetic, or a config builder) stays as written."""
    if col.writes or col.aug_names:
        return True
    for node in col.call_nodes:
        if imports.qualify_numpy(node.func) is not None:
            return True
        if isinstance(node.func, cst.Name) and node.func.value in module_functions:
            return True
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in fx.INPLACE_METHODS:
            return True
        if any(a.keyword is not None and a.keyword.value == "out" for a in node.args):
            return True
    return col.uses_numpy


def _builders(functions, collected, called, host) -> dict:
    """Functions that only build Python containers in loops (no store, no `x op= v`) and that no
    converted function calls: they stay NumPy host code (containers.builds_in_loop says why)."""
    found = {}
    for name, f in functions.items():
        if name in host or collected[name].writes or collected[name].aug_names:
            continue
        node = containers.builds_in_loop(f)
        if node is not None and all(name not in called[other] or other in host for other in functions
                                    if other != name):
            found[name] = node
    return found


class LazyPositions:
    """Source positions, computed on first use: a clean file never pays for them."""

    def __init__(self, wrapper: MetadataWrapper):
        self.wrapper = wrapper
        self._map = None

    def _resolved(self):
        if self._map is None:
            self._map = self.wrapper.resolve(PositionProvider)
        return self._map

    def __getitem__(self, node):
        return self._resolved()[node]

    def __contains__(self, node) -> bool:
        return node in self._resolved()


def analyse_module(wrapper: MetadataWrapper) -> ModuleFacts:
    module = wrapper.module
    positions = LazyPositions(wrapper)
    imports = ImportMap(module)
    functions, module_globals = module_level_names(module)
    numpy_names = frozenset(n for n, q in imports.aliases.items() if q == "numpy" or q.startswith("numpy."))
    collected = {n: Collected(f, numpy_names) for n, f in functions.items()}  # the one pass over each body
    reasons = {n: r for n, c in collected.items() if (r := host_reason(c.call_nodes, imports))}
    host = {n: r[0] for n, r in reasons.items()}
    host_nodes = {n: r[1] for n, r in reasons.items()}
    called = {name: {c.func.value for c in col.call_nodes if isinstance(c.func, cst.Name)}
              for name, col in collected.items()}
    changed = True
    while changed:  # a function that calls host code is host code
        changed = False
        for name, f in functions.items():
            if name in host:
                continue
            for callee in sorted(called[name]):
                if callee in host:
                    host[name] = f"calls host function {callee}()"
                    host_nodes[name] = f.name
                    changed = True
                    break
    for name, node in _builders(functions, collected, called, host).items():
        host[name], host_nodes[name] = "builds Python containers in a loop and writes no array", node
    plain = {n for n in functions if n not in host and not _touches_arrays(collected[n], imports, set(functions))}
    converted = {n: f for n, f in functions.items() if n not in host}
    names = frozenset(converted)
    effects: dict[str, fx.Effects] = {}
    facts: dict[str, FunctionFacts] = {}
    for _ in range(20):  # effects of callees feed the callers: iterate to a fixed point
        facts = {n: analyse_function(f, imports, names, module_globals, effects, positions, collected[n])
                 for n, f in converted.items()}
        new = {n: x.effects() for n, x in facts.items()}
        if new == effects:
            break
        effects = new
    return ModuleFacts(imports, facts, host, host_nodes, module_globals, positions, frozenset(plain))
