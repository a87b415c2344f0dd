"""Module-level names whose value changes while the module runs, and which of them a function reads.

A compiled function is traced once per signature: a module-level name it reads becomes a constant
of the program, the value it had at the first call. That is exact for constants (`DT = 0.01`,
`W = np.array([...])` never written) and wrong for state the driver changes between calls:

    u = np.zeros(n)
    def energy():
        return 0.5 * np.sum(u ** 2)     # compiled, `u` would be frozen at the first call
    for t in range(nt):
        u[1:-1] += ...
        print(energy())                 # NumPy prints a new energy every step

A name changes when the module binds it more than once (a rebinding, `+=`, a loop target, an
assignment inside a loop or branch that runs twice counts too), when a function declares it
`global`, when anything writes into it (a subscript store, an attribute store, `out=`, an in-place
method, `np.add.at`), or when module-level code passes it to a call that could write it (anything
but a builtin or a NumPy function of np2ref's table called without `out=`; a builtin or a
str/number constant handed to a call stays what it was).

With `setup=True` (which module functions stay host code, analysis/module.py), set-up writes do
not count: a store, `out=`, `np.add.at` or NumPy in-place function
(`np.fill_diagonal(SUB, 2)`) at module level before the module's first `def` or `class`
(`WALLS = np.zeros(...); WALLS[1, 1:4] = True`), nor rebindings there outside module loops
(`LIGHT = LIGHT / np.linalg.norm(LIGHT)`, `GAIN *= 0.5`). No function of the module exists before
its `def` runs, so none is called before the last such write, and the first call sees the final
value. Likewise a module-level write or rebinding after some `def`s that none of the functions
defined so far reads, directly or through the module functions it calls (`PIN = make(5); PIN[:2]
= True` after `def make`, then `def clamp` reading PIN): those functions are the only ones that
can run before the write. A `class` defined before the write counts as reading every name. (rt/module_globals.py
still compares each module-level value a compiled function read on every call.)
"""

from __future__ import annotations

import builtins
import collections

import libcst as cst
from libcst.helpers import get_full_name_for_node

from . import effects as fx
from .names import ImportMap
from .numpy_table import IN_PLACE_FUNCTIONS, RANDOM_DRAWS, lookup
from .nodes import run_visitor

_BUILTINS = frozenset(dir(builtins))

# Methods that read: an array's (less the in-place ones) and a container's read-only ones.
READING_METHODS = (fx.ARRAY_METHODS
                   - fx.INPLACE_METHODS - fx.REFUSED_INPLACE_METHODS) | frozenset(
    {"get", "keys", "values", "items", "index", "count"})


def changing_globals(module: cst.Module, imports: ImportMap, setup: bool = False,
                     readers: frozenset[str] = frozenset()) -> frozenset[str]:
    """The module-level names whose value may change after they are first bound; `setup`: after
    the module's first function exists (what a compiled function can see change); `readers`:
    module functions that write none of their arguments (a name handed only to them stays)."""
    v = _ModuleState(imports, setup)
    run_visitor(module, v)
    v.written |= _seen_late(v.late, {f.name.value: f for f in v.defs if f is not None})
    v.handed -= {n for n, callees in v.handed_to.items() if None not in callees and callees <= readers}
    # a method called on an imported module (`config.find()`) or on a str/number constant
    # (`STAMP.encode()`) cannot change what the name holds; a call handed a constant (`f(DT)`)
    # or a builtin the module does not rebind (`x.astype(int)`) cannot change it either
    unbound_builtins = _BUILTINS - set(v.bindings)
    called = (v.call_written - v.modules - v.constants) | (v.handed - v.constants - unbound_builtins)
    # (setup: a rebinding is in v.late, save a name an import binds too: `try: import
    # matplotlib.pyplot as plt / except ImportError: plt = None` stays a library's, host code)
    rebound = {n for n, k in v.bindings.items() if k > 1 and (not setup or n in v.imported)}
    return frozenset(rebound | v.written | called | v.declared_global)


def number_constants(module: cst.Module, imports: ImportMap) -> frozenset[str]:
    """Module-level names bound once, to a number literal (`A0 = 0.1`, `N_MIN, F_A = 5, 0.99`),
    that nothing writes or declares `global`: a local bound to one holds a Python number."""
    v = _ModuleState(imports)
    run_visitor(module, v)
    found = set()
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                found.update(_constant_targets(small.targets[0].target, small.value, _NUMBERS))
    return frozenset(n for n in found if v.bindings[n] == 1 and n not in v.written | v.declared_global)


def _seen_late(late: dict[str, list[tuple]], defs: dict[str, cst.FunctionDef]) -> set[str]:
    """The names written at module level after some `def` (`late`: name -> the defs existing at
    each write) that one of those defs reads, itself or through the module functions it calls
    (by name, transitively); a class among them reads everything."""
    reach: dict[str, frozenset[str]] = {}

    def reads(f: cst.FunctionDef) -> frozenset[str]:
        if f.name.value not in reach:
            reach[f.name.value] = seen = set()
            todo = [f]
            while todo:
                names = globals_read(todo.pop())
                todo += [defs[n] for n in names - seen if n in defs]
                seen |= names
            reach[f.name.value] = frozenset(seen)
        return reach[f.name.value]
    return {name for name, snapshots in late.items()
            if any(f is None or name in reads(f) for snap in snapshots for f in snap)}


def globals_read(func: cst.FunctionDef, local_names=None) -> frozenset[str]:
    """Names a function reads that it does not bind itself (module-level names or builtins)."""
    return frozenset(names_read(func.body)) - (local_names_of(func) if local_names is None else frozenset(local_names))


def names_read(node: cst.CSTNode) -> set[str]:
    """Every name `node` mentions, but attribute names and keyword-argument names."""
    v = _Reads()
    run_visitor(node, v)
    return v.names


def names_bound(node: cst.CSTNode) -> set[str]:
    """The names a statement (or block) binds in its own scope: assignments, loop targets, imports
    with `as`, defs; not those of nested functions."""
    v = _ModuleState(ImportMap(cst.Module(body=[])))
    run_visitor(node, v)
    return set(v.bindings)


def _comprehension(visitor, node) -> bool:
    """Visit a comprehension with the names its `for` clauses bind pushed on `visitor.comps`
    (its first iterable is evaluated in the enclosing scope, before them)."""
    run_visitor(node.for_in.iter, visitor)
    bound: set[str] = set()
    clause = node.for_in
    while clause is not None:
        bound |= _Reads.targets(clause.target)
        clause = clause.inner_for_in
    visitor.comps.append(bound)
    for cond in node.for_in.ifs:
        run_visitor(cond, visitor)
    if node.for_in.inner_for_in is not None:
        run_visitor(node.for_in.inner_for_in, visitor)
    for part in (getattr(node, "elt", None), getattr(node, "key", None), getattr(node, "value", None)):
        if part is not None:
            run_visitor(part, visitor)
    visitor.comps.pop()
    return False


class _ModuleState(cst.CSTVisitor):
    def __init__(self, imports: ImportMap, setup: bool = False):
        self.imports = imports
        self.setup = setup  # writes before the first def/class do not count
        self.bindings: collections.Counter = collections.Counter()
        self.written: set[str] = set()
        self.declared_global: set[str] = set()
        self.depth = 0  # function nesting: bindings count at module scope only
        self.scopes: list[frozenset[str]] = []  # the local names of the functions we are in
        self.comps: list[set[str]] = []  # the names bound by the comprehensions we are in
        self.call_written: set[str] = set()  # names a method call may have changed
        self.handed: set[str] = set()  # names module-level code passes to a call that may write them
        self.handed_to: dict[str, set] = {}  # of those, name -> the callees' names (None: not a plain name)
        self.modules: set[str] = set()  # module-level names bound by `import x` / `from . import x`
        self.imported: set[str] = set()  # names bound by an `as` (of an import, a with, an except)
        self.constants: set[str] = set()  # module-level names bound to a str or number literal
        self.defined = False  # a module-level `def`/`class` seen: writes from here on change a name
        self.defs: list[cst.FunctionDef | None] = []  # the module's defs so far (None: a class)
        self.late: dict[str, list[tuple]] = {}  # a set-up write or rebinding: name -> the defs then
        self.loops = 0  # module-level loops we are in

    def visit_Import(self, node: cst.Import) -> None:
        if self.depth == 0:
            for alias in node.names:  # `import a.b` binds a; `import a.b as c` binds c
                self.modules.add(alias.asname.name.value if alias.asname is not None
                                 else get_full_name_for_node(alias.name).split(".")[0])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if self.depth == 0 and node.module is None and not isinstance(node.names, cst.ImportStar):
            for alias in node.names:  # `from . import config`: a submodule of the package
                self.modules.add(alias.asname.name.value if alias.asname else alias.name.value)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        for small in node.body:
            if self.depth == 0 and isinstance(small, cst.Assign) and len(small.targets) == 1:
                self.constants.update(_constant_targets(small.targets[0].target, small.value))

    # a comprehension's own variables are not module-level names (nor the function's)
    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.depth == 0:
            self._count(node.name.value)
            self.defined = True
            self.defs.append(node)
        self.depth += 1
        self.scopes.append(local_names_of(node))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth -= 1
        self.scopes.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if self.depth == 0:
            self._count(node.name.value)
            self.defined = True
            self.defs.append(None)
        self.depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.depth -= 1

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.depth += 1

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.depth -= 1

    def visit_Global(self, node: cst.Global) -> None:
        self.declared_global.update(n.name.value for n in node.names)

    def _count(self, name: str, times: int = 1) -> None:
        """A module-level binding of `name` (`times` 2: one that rebinds, `+=`, `del`, a loop's
        target). With `setup`, a rebinding or a binding in a module loop is a late write: it
        changes the name for the defs existing then (changing_globals, _seen_late)."""
        if self.setup and (self.bindings[name] or times > 1 or self.loops):
            self.late.setdefault(name, []).append(tuple(self.defs) + ((None,) if self.loops else ()))
        self.bindings[name] += times

    def _bind(self, target: cst.BaseExpression, times: int = 1) -> None:
        if isinstance(target, cst.Name):
            if self.depth == 0:
                self._count(target.value, times)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._bind(e.value, times)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, times)
        elif isinstance(target, (cst.Subscript, cst.Attribute)):
            self._write(target.value)

    def _write(self, expr: cst.BaseExpression, into: set[str] | None = None) -> None:
        if self.setup and into is None and self.depth == 0 and not self.defined:
            return  # set-up before any function of the module exists
        root = self._written_root(expr)
        if root is not None and not (self.scopes and root in self.scopes[-1]) \
                and not any(root in c for c in self.comps):
            if self.setup and into is None and self.depth == 0:  # (changing_globals decides; in a
                # module-level loop a def later in its body exists at the next trip: None, any reads)
                self.late.setdefault(root, []).append(tuple(self.defs) + ((None,) if self.loops else ()))
                return
            (self.written if into is None else into).add(root)

    def _written_root(self, expr: cst.BaseExpression) -> str | None:
        """The name whose value a write through `expr` changes: `u` for `u[1:]`, `u.T`,
        `u.reshape(4, 4)[0]` and `np.flip(u)[0]` (a view of an argument)."""
        while True:
            if isinstance(expr, cst.Name):
                return expr.value
            if isinstance(expr, (cst.Subscript, cst.Attribute)):
                expr = expr.value
            elif isinstance(expr, cst.Call):
                if isinstance(expr.func, cst.Attribute) and self.imports.qualify(expr.func) is None:
                    expr = expr.func.value  # a method of the array
                elif expr.args:
                    expr = expr.args[0].value  # a function of it
                else:
                    return None
            else:
                return None

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, 2)  # `x += 1` binds a name that was bound before

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.loops += self.depth == 0  # (first: a def in the body exists when the target is rebound)
        self._bind(node.target, 2)  # a loop target takes a value per iteration

    def visit_While(self, node: cst.While) -> None:
        self._loop_bindings(node.body)
        self.loops += self.depth == 0

    def leave_For(self, original_node: cst.For) -> None:
        self._loop_bindings(original_node.body)
        self.loops -= self.depth == 0

    def leave_While(self, original_node: cst.While) -> None:
        self.loops -= self.depth == 0

    def _loop_bindings(self, body: cst.CSTNode) -> None:
        """A name bound inside a module-level loop is bound once per iteration."""
        if self.depth:
            return
        inner = _ModuleState(self.imports)
        run_visitor(body, inner)
        for name in inner.bindings:
            self.bindings[name] += 1

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)
        if isinstance(node.name, cst.Name):
            self.imported.add(node.name.value)

    def visit_Del(self, node: cst.Del) -> None:
        self._bind(node.target, 2)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "out":
                for leaf in (arg.value.elements if isinstance(arg.value, cst.Tuple) else [arg.value]):
                    self._write(leaf.value if isinstance(leaf, cst.BaseElement) else leaf)
        if isinstance(func, cst.Attribute) and func.attr.value not in READING_METHODS | RANDOM_DRAWS:
            # a draw moves a generator's state, which npr_random reads at run time: no staleness
            qual = self.imports.qualify(func)
            if qual is None:  # `u.fill(0)`, `hist.append(x)`, `obj.update()`: may change the receiver
                self._write(func.value, self.call_written if isinstance(func.value, cst.Name) else None)
        qual = self.imports.qualify_numpy(func)
        if qual is not None and (qual.endswith(".at") or qual in IN_PLACE_FUNCTIONS):
            if node.args:  # `np.add.at(a, ...)`, `np.fill_diagonal(a, v)`: write their first argument
                self._write(node.args[0].value)
            return
        if self.depth or _reads_only(func, qual):
            return
        for arg in node.args:  # module-level code hands the value to a call that may write it
            if isinstance(arg.value, cst.Name):
                self._write(arg.value, self.handed)
                self.handed_to.setdefault(arg.value.value, set()).add(
                    func.value if isinstance(func, cst.Name) and arg.keyword is None and not arg.star else None)


def _reads_only(func: cst.BaseExpression, qual: str | None) -> bool:
    if qual is not None:
        return lookup(qual) is not None
    return isinstance(func, cst.Name) and func.value in fx.SAFE_BUILTINS | {"print"}


_NUMBERS = (cst.Integer, cst.Float, cst.Imaginary)
_CONSTANTS = (cst.SimpleString, cst.ConcatenatedString, *_NUMBERS)


def _constant_targets(target: cst.BaseExpression, value: cst.BaseExpression, kinds=_CONSTANTS) -> list[str]:
    """The names `target = value` binds to a str or number literal (`kinds`): `N = 6`, and each
    name of `m, n = 6, 6` (a script's sizes). No call can change what such a name holds."""
    if isinstance(target, cst.Name):
        while kinds is _NUMBERS and isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            value = value.expression  # `E_K = -77.0`
        return [target.value] if isinstance(value, kinds) else []
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
            and len(target.elements) == len(value.elements) \
            and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        return [n for t, v in zip(target.elements, value.elements) for n in _constant_targets(t.value, v.value, kinds)]
    return []


class _Reads(cst.CSTVisitor):
    def __init__(self):
        self.names: set[str] = set()
        self.comps: list[set[str]] = []

    @staticmethod
    def targets(target) -> set[str]:
        if isinstance(target, cst.Name):
            return {target.value}
        if isinstance(target, (cst.Tuple, cst.List)):
            return set().union(*(_Reads.targets(e.value) for e in target.elements))
        if isinstance(target, cst.StarredElement):
            return _Reads.targets(target.value)
        return set()

    # a comprehension's own variables are not names it reads
    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        run_visitor(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        run_visitor(node.value, self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if not any(node.value in c for c in self.comps):
            self.names.add(node.value)


def local_names_of(func: cst.FunctionDef) -> frozenset[str]:
    """A function's parameters and the names it binds (without a `global` declaration)."""
    from .collect import param_names, star_names

    v = _ModuleState(ImportMap(cst.Module(body=[])))
    run_visitor(func.body, v)
    return (frozenset(param_names(func) + star_names(func)) | frozenset(v.bindings)) - frozenset(v.declared_global)


def string_tables(module: cst.Module, imports: ImportMap) -> frozenset[str]:
    """Module-level names bound to `np.array(...)`/`np.asarray(...)` of a list or tuple of string
    literals (`CHARS = np.array([".", "#", "~"])`, characters to print a grid with): JAX arrays
    hold numbers and booleans, so a function that reads one stays NumPy code (host_code.py)."""
    def strings(e) -> bool:
        if isinstance(e, (cst.List, cst.Tuple)):
            return bool(e.elements) and all(not isinstance(x, cst.StarredElement) and strings(x.value)
                                            for x in e.elements)
        return isinstance(e, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))

    found = set()
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                    and isinstance(small.value, cst.Call) and small.value.args \
                    and imports.qualify_numpy(small.value.func) in ("numpy.array", "numpy.asarray") \
                    and strings(small.value.args[0].value):
                found.add(small.targets[0].target.value)
    return frozenset(found)
