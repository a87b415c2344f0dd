"""Module-wide facts: which functions are converted, which stay host code (why: host_code.py),
and the effects table of every converted function (a fixed point over calls between them)."""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.metadata import MetadataWrapper


from . import containers, effects as fx
from .positions import module_positions
from .aliases import analyse_function, FunctionFacts
from .collect import chosen_functions, Collected, param_names
from .module_state import changing_globals, number_constants, string_tables
from .generators import made_generators
from .identity import param_of, returned_through
from .names import ImportMap
from .numpy_table import RANDOM_GENERATORS
from .host_code import argument_readers, host_culprits, PURE_MODULES, traps_float_errors, try_reached


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
    host_calls: dict = dataclasses.field(default_factory=dict)  # host function -> every (why, node)
    generators: frozenset = frozenset()  # converted functions that make a generator at run time
    objects: frozenset = frozenset()  # module-level objects np2ref cannot see into (npr_opaque)


def module_level_names(module: cst.Module) -> tuple[dict[str, cst.FunctionDef], frozenset[str]]:
    functions: dict[str, cst.FunctionDef] = {}
    names: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and is_converted_function(stmt):
            names.add(stmt.name.value)  # np2ref's output (converting it again leaves it as it is)
        elif isinstance(stmt, cst.FunctionDef):
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


def is_converted_function(func: cst.FunctionDef) -> bool:
    """Whether `func` is np2ref's output: decorated `@npr_jit` (the runtime's entry decorator)."""
    for deco in func.decorators:
        expr = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
        if isinstance(expr, cst.Name) and expr.value == "npr_jit":  # emit/jaxnames.py ENTRY_DECORATOR
            return True
    return False


def _collect(t, out):
    if isinstance(t, cst.Name):
        out.add(t.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for e in t.elements:
            _collect(e.value, out)


def module_objects(module: cst.Module, imports: ImportMap) -> dict[str, str]:
    """Module-level names bound to the result of a call that is not NumPy's (`SOURCE = Source()`):
    "generator" for a NumPy random generator, "object" for anything else, whose methods np2ref
    cannot see into. Arrays, numbers and containers built with literals are not listed."""
    out: dict[str, str] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not (isinstance(small, (cst.Assign, cst.AnnAssign)) and isinstance(small.value, cst.Call)):
                continue
            qual = imports.qualify(small.value.func)
            if qual in RANDOM_GENERATORS:
                kind = "generator"
            elif (qual is not None and qual.split(".")[0] in PURE_MODULES) or (
                    isinstance(small.value.func, cst.Name) and small.value.func.value in fx.SAFE_BUILTINS):
                continue  # an array, a number, `dict(dt=0.1)`: data, not an object with methods
            else:
                kind = "object"
            names: set[str] = set()
            for t in (small.targets if isinstance(small, cst.Assign) else [small]):
                _collect(t.target, names)
            for n in names:
                out[n] = kind if out.get(n, kind) == kind else "object"
    return out


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
    """Functions that only build Python containers in loops (no store, no `x op= v`, no call of a
    module function that makes one: a time loop `step(u); history.append(u.sum())` writes `u`)
    and that no converted function calls: they stay NumPy host code (containers.builds_in_loop
    says why)."""
    writers = {n for n, c in collected.items() if c.writes or c.aug_names or _writes_out(c)}
    grew = True
    while grew:  # a function calling a writer writes too
        grew = False
        for name in functions:
            if name not in writers and called[name] & writers:
                writers.add(name)
                grew = True
    found = {}
    for name, f in functions.items():
        if name in host or name in writers:
            continue
        node = containers.builds_in_loop(f)
        if node is not None and all(name not in called[other] or other in host for other in functions
                                    if other != name):
            found[name] = node
    return found


def _writes_out(col) -> bool:
    """A call with `out=` (`np.add(x, dt * v, out=x)`): a write, as a store is."""
    return any(a.keyword is not None and a.keyword.value == "out" for c in col.call_nodes for a in c.args)


def _fixed_point(converted: dict, called: dict, analyse) -> dict[str, FunctionFacts]:
    """Each converted function's facts, the effects of its callees fed in: callees first (the
    call graph's post-order), so a module without recursion is analysed once per function; a
    function is analysed again only while the effects of a function it calls change (a cycle of
    calls), at most 20 rounds."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:  # (iterative: a long chain of calls must not hit the recursion limit)
        stack = [(name, iter(sorted(called[name] & converted.keys())))]
        seen.add(name)
        while stack:
            current, callees = stack[-1]
            nxt = next((c for c in callees if c not in seen), None)
            if nxt is None:
                stack.pop()
                order.append(current)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(called[nxt] & converted.keys()))))
    for name in converted:
        if name not in seen:
            visit(name)
    callers = {n: {m for m in converted if n in called[m]} for n in converted}
    effects: dict[str, fx.Effects] = {}
    facts: dict[str, FunctionFacts] = {}
    todo = order
    for _ in range(20):
        changed = []
        for name in todo:
            facts[name] = analyse(name, converted[name], effects)
            new = facts[name].effects()
            if effects.get(name) != new:
                effects[name] = new
                changed.append(name)
        position = {n: i for i, n in enumerate(todo)}  # a caller analysed after c saw its new effects
        stale = {n for c in changed for n in callers[c] if n not in position or position[n] <= position[c]}
        todo = [n for n in order if n in stale]
        if not todo:
            break
    return facts


class LazyPositions:
    """Source positions, computed on first use: a clean file never pays for them."""

    def __init__(self, wrapper: MetadataWrapper):
        self.wrapper = wrapper
        self._map = None

    def use(self, positions) -> None:
        """Answer from `positions` from now on (frontend/jumps.Positions: a desugared module's
        nodes at the user's text's positions), for every holder of this object."""
        self._map = positions

    def _resolved(self):
        if self._map is None:
            self._map = module_positions(self.wrapper.module)
        return self._map

    def __getitem__(self, node):
        return self._resolved()[node]

    def __contains__(self, node) -> bool:
        return node in self._resolved()


def analyse_module(wrapper: MetadataWrapper, seeds: bool = False, refused: dict[str, str] | None = None,
                   keep_generators: frozenset[str] = frozenset()) -> ModuleFacts:
    """`seeds`: np.random.seed is translated (a host call at run time), not host code (NPR021).
    `keep_generators`: functions that make a generator and stay host code for it, as any did
    before generators were made at run time (the pipeline's second pass for a function the
    translation refuses: set-up code that makes a generator never refuses the file).
    `refused`: functions the fence refuses (a nested def it cannot lift, `try`, `del`), with why:
    one that writes no array (set-up code) stays host code, NumPy as written, and the rest of the
    file converts; one that writes an array is refused."""
    module = wrapper.module
    positions = LazyPositions(wrapper)
    imports = ImportMap.of(module)
    functions, module_globals = module_level_names(module)
    numpy_names = frozenset(n for n, q in imports.aliases.items() if q == "numpy" or q.startswith("numpy."))
    collected = {n: Collected(f, numpy_names) for n, f in functions.items()}  # the one pass over each body
    _returned_through_helpers(functions, collected)
    objects = module_objects(module, imports)
    changing = changing_globals(module, imports, setup=True, readers=argument_readers(functions, collected, imports))
    strings = string_tables(module, imports)
    classes = frozenset(s.name.value for s in module.body if isinstance(s, cst.ClassDef))
    made = {n: made_generators(functions[n], c.bindings, imports, frozenset(param_names(functions[n])),
                               frozenset(functions)) for n, c in collected.items() if n not in keep_generators}
    culprits = {n: r for n, c in collected.items()
                if (r := tuple(host_culprits(functions[n], c, imports, objects, changing, seeds, made.get(n), strings,
                                             classes)))}
    for n, why in (refused or {}).items():
        if n in collected and n not in culprits and not collected[n].writes and not collected[n].aug_names:
            culprits[n] = ((f"{why}, and writes no array: set-up code", functions[n].name),)
    called = {name: {c.func.value for c in col.call_nodes if isinstance(c.func, cst.Name)}
              for name, col in collected.items()}
    culprits.update(_called_in_try(module, functions, collected, called, culprits))
    host = {n: r[0][0] for n, r in culprits.items()}
    host_nodes = {n: r[0][1] for n, r in culprits.items()}
    changed = True
    while changed:  # a function that calls host code is host code
        changed = False
        for name, f in functions.items():
            if name in host:
                continue
            for callee in sorted(called[name]):
                if callee in host:
                    host[name] = f"calls host function {callee}(), which {host[callee]}"
                    host_nodes[name] = f.name
                    changed = True
                    break
    for name in host:  # each call of a host function is a break of its caller too
        culprits[name] = culprits.get(name, ()) + tuple(
            (f"calls host function {c.func.value}()", c) for c in collected[name].call_nodes
            if isinstance(c.func, cst.Name) and c.func.value in host and c.func.value != name)
    for name, node in _builders(functions, collected, called, host).items():
        host[name], host_nodes[name] = "builds Python containers in a loop and writes no array", node
        culprits[name] = ((host[name], node),)
    plain = {n for n in functions if n not in host and not _touches_arrays(collected[n], imports, set(functions))}
    converted = {n: f for n, f in functions.items() if n not in host}
    names = frozenset(converted)
    numbers = number_constants(module, imports)
    # a call through a local bound to module functions (`flip = rev_b if whole else rev_a`) depends on them
    deps = {n: called[n] | {g for gs in chosen_functions(c.bindings, names, c.locals).values() for g in gs}
            for n, c in collected.items()}
    facts = _fixed_point(converted, deps, lambda n, f, effects: analyse_function(
        f, imports, names, module_globals, effects, positions, collected[n], numbers))
    # where a host loop breaks: the calls and reads, not the function's name (a stale read's first)
    breaks = {n: tuple(c for c in r if c[1] is not functions[n].name) or r for n, r in culprits.items()}
    return ModuleFacts(imports, facts, host, host_nodes, module_globals, positions, frozenset(plain),
                       host_calls=breaks, generators=frozenset(n for n, g in made.items() if g and n in facts),
                       objects=frozenset(n for n, k in objects.items() if k == "object"))


def _called_in_try(module, functions, collected, called, culprits) -> dict:
    """The module functions a `try` reaches (host_code.try_reached) that write anything or call a
    module function: they stay host code, as the function holding the `try` does."""
    found = {}
    trapped = try_reached(module, functions, traps_float_errors)
    for callee in sorted(try_reached(module, functions)):
        col = collected[callee]
        if callee in trapped and callee not in culprits:
            found[callee] = ((f"is reached from a `try` that catches NumPy's FloatingPointError (np.errstate), "
                              f"which a compiled call never raises", functions[callee].name),)
        elif callee not in culprits and (col.writes or col.aug_names or called[callee] & functions.keys()):
            found[callee] = ((f"is reached from a `try` and writes arrays or calls module functions (compiled, "
                              f"an error it raised would leave its arguments as before the call, where NumPy's "
                              f"handler sees them written up to it)", functions[callee].name),)
    return found


def _returned_through_helpers(functions, collected) -> None:
    """A function returning a parameter through a helper that returns it as itself (`return
    laplacian(u, u)`) returns it as itself too: to the least fixed point (a recursion proves
    nothing), noted in each Collected before the effects are computed."""
    changed = True
    while changed:
        changed = False
        callees = {n: (param_names(functions[n]), c.returned) for n, c in collected.items()}
        for n, col in collected.items():
            if col.returned is None and (found := returned_through(functions[n], callees)) is not None:
                col.returned, col.returns_param, changed = found, param_of(found), True
