"""Why a function stays host (NumPy) code: I/O and printing, random set-up, other libraries, a call
np2ref cannot see into (a method of a module-level object, a function passed in) that would run
once while tracing and freeze its result into the program, or a module-level name the module
changes. host_reason gives the first reason, host_culprits every one in source order; the calls
that stay legal in a converted function (known when traced, printed at run time, dead code) are
told apart here too."""

from __future__ import annotations

import libcst as cst

from . import effects as fx
from .collect import Collected, param_names
from .library_table import LIBRARY_CALLS
from .module_state import READING_METHODS, globals_read
from .names import dotted, ImportMap
from .nodes import nodes_of, run_visitor
from .numpy_table import is_host_only, lookup, RANDOM_DRAWS, RANDOM_SEED


# (a set is of Python values, hashed: `set(roots.tolist())` needs the array's data on the host)
HOST_BUILTINS = frozenset({"print", "open", "input", "exit", "quit", "breakpoint", "set", "frozenset"})
PURE_MODULES = frozenset({"math", "numpy"})
# Functions of other modules that compute nothing host-side: a loop over them runs as Python
# (`for _ in itertools.repeat(None, n)` with a static n, as `for _ in range(n)`).
PURE_CALLS = frozenset({"itertools.repeat"})
# Methods of a parameter np2ref calls as they are: an array's, and a list's, dict's or set's (a
# loop that changes a container runs as Python: analysis/containers.py). Any other call reached through a parameter (a function or module passed in:
# `fn(x)`, `xp.zeros(n)`) is checked when traced (npr_call): pure ones run, others are refused.
PARAMETER_METHODS = fx.ARRAY_METHODS | frozenset(
    n for kind in (list, dict, set) for n in dir(kind) if not n.startswith("_"))  # appends: containers.py


def calls_through_parameter(callee: cst.BaseExpression, params, local_names) -> bool:
    """`fn(x)` with `fn` a parameter, or `xp.zeros(n)` / `obj.step()` whose receiver chain starts at
    a parameter and whose method is no array method or random draw: np2ref cannot see the callee
    until the call is traced."""
    if isinstance(callee, cst.Name):
        return callee.value in params
    if not isinstance(callee, cst.Attribute):
        return False
    root = _root(callee)
    return (root in params and callee.attr.value not in PARAMETER_METHODS
            and callee.attr.value not in RANDOM_DRAWS)


def is_errstate_with(node: cst.With) -> bool:
    """Whether each item of the `with` is a call of an `errstate` (np.errstate, as written: the
    planner checks what the name is), with no `as`: the fence lets such a block through."""
    return all(isinstance(item.item, cst.Call) and item.asname is None and (
        isinstance(item.item.func, cst.Attribute) and item.item.func.attr.value == "errstate"
        or isinstance(item.item.func, cst.Name) and item.item.func.value == "errstate") for item in node.items)


def _errstate_calls(func: cst.FunctionDef) -> set:
    """The calls that are items of a `with np.errstate(...)` block (rewrite/rules/errstate.py)."""
    return {item.item for node in nodes_of(func, cst.With) if is_errstate_with(node) for item in node.items}


def host_reason(func: cst.FunctionDef, col: Collected, imports: ImportMap, objects: dict[str, str],
                changing: frozenset[str] = frozenset(), seeds: bool = False,
                made=None) -> tuple[str, cst.CSTNode] | None:
    """Why a function must stay host (NumPy) code: I/O, printing, random set-up, other libraries,
    or a call np2ref cannot see into and would otherwise run once, while tracing, freezing its
    result into the program (a method of a module-level object, a function passed in), or a
    module-level name it reads that the module changes (analysis/module_state.py)."""
    return next(iter(host_culprits(func, col, imports, objects, changing, seeds, made)), None)


def host_culprits(func: cst.FunctionDef, col: Collected, imports: ImportMap, objects: dict[str, str],
                  changing: frozenset[str] = frozenset(), seeds: bool = False, made=None,
                  strings: frozenset[str] = frozenset(), classes: frozenset[str] = frozenset()):
    """Every (why, node) that makes a function host code, in source order (host_reason's first):
    where a host loop's body breaks between compiled steps (frontend/host_steps.py). `made`: the
    generators the function makes that are made at run time (analysis/generators.py). `classes`:
    the module's classes (an object made of one, and its methods called, stay host code)."""
    params = frozenset(param_names(func))
    made = made or {}
    skipped = dead_calls(func) | _errstate_calls(func) | {c for g in made.values() for c in g.calls}
    instances = _instances(col, classes)
    for node in col.call_nodes:
        if node in skipped:  # `if 0:` never runs; np.errstate's block is translated; a generator made here
            continue
        callee = node.func
        why = _class_use(callee, classes - set(col.locals), instances)
        if why is not None:
            yield why, node
            continue
        if isinstance(callee, cst.Name) and callee.value in HOST_BUILTINS and not (
                callee.value == "print" and printed_at_run_time(node)):
            yield f"calls {callee.value}()", node
            continue
        qual = imports.qualify(callee)
        if qual is not None:
            if is_host_only(qual) and not (seeds and qual == RANDOM_SEED):
                yield f"calls {dotted(callee)}()", node
                continue
            if qual.split(".")[0] not in PURE_MODULES and qual not in PURE_CALLS \
                    and qual not in LIBRARY_CALLS \
                    and not special_function_call(node, qual, col.locals):  # a library call with an exact JAX counterpart
                yield f"calls {dotted(callee)}() from {qual.split('.')[0]}", node
            continue
        root = _root(callee)
        if root is None or not isinstance(callee, cst.Attribute):
            continue
        method = callee.attr.value
        if method in RANDOM_DRAWS and not is_generator_draw(callee, params | made.keys(), col.locals, objects):
            yield f"draws {dotted(callee) or method}() from a generator np2ref cannot name", node
            continue
        if root in objects and root not in col.locals and not (
                objects[root] == "generator" and isinstance(callee.value, cst.Name) and method in RANDOM_DRAWS) \
                and not (opaque_call(node, objects, col.locals, params) and not writes_parameters(col, params)):
            yield f"calls {dotted(callee) or method}() of the module-level object `{root}`", node
    for node in nodes_of(func.body, (cst.Try, cst.TryStar)):
        yield TRY_REASON, node
    writes = {root for w in col.writes if (root := _root(w.target)) is not None}  # NPR202's to refuse
    stale = sorted((globals_read(func, col.locals) & changing) - writes - _opaque_receivers(func, col, objects))
    for name in sorted(globals_read(func, col.locals) & strings):  # (module_state.string_tables)
        yield f"reads module-level `{name}`, an array of strings (JAX arrays hold numbers and booleans)", func.name
    for name in stale:  # the function's name first (host_reason's), then each read (a break)
        why = (f"reads module-level `{name}`, which the module changes after defining it (compiled, "
               "it would keep the value it had at the first call)")
        if name == stale[0]:
            yield why, func.name
        yield from ((why, node) for node in _reads_of(func.body, name))


CLASS_USE = "np2ref translates functions, not classes"


def _instances(col: Collected, classes) -> dict[str, str]:
    """The function's names bound to an object of a module class (`bar = Progress(n)`): its class."""
    found = {}
    for target, value in col.bindings:
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in classes \
                and value.func.value not in col.locals:
            found[target.value] = value.func.value
    return found


def _class_use(callee: cst.BaseExpression, classes, instances: dict[str, str]) -> str | None:
    """Why a call of a module class (`Progress(n)`), or of a method of a name bound to an object
    of one (`bar.update()`), stays host code: np2ref translates functions, not classes (compiled,
    the object's methods would run once, while tracing, and their effects be lost)."""
    if isinstance(callee, cst.Name) and callee.value in classes:
        return f"makes an object of the module's class `{callee.value}` ({CLASS_USE})"
    if isinstance(callee, cst.Attribute) and isinstance(callee.value, cst.Name) and callee.value.value in instances:
        return f"calls {dotted(callee)}(), a method of the module's class `{instances[callee.value.value]}` ({CLASS_USE})"
    return None


# A `try` stays host code (the fence's NPR015 where the function is converted): a compiled program
# cannot stop at an exception and run a handler on the state NumPy's would leave; the function's
# loops outside it, and the steps of a loop around it, are compiled (frontend/host_loops.py, host_steps.py).
TRY_REASON = "holds a `try` (a compiled program cannot catch an exception where NumPy raises it)"


_INTERRUPTS = frozenset({"KeyboardInterrupt", "SystemExit"})


def interrupt_only(node: cst.CSTNode) -> bool:
    """A `try` (no `finally`) whose handlers catch only KeyboardInterrupt or SystemExit, which no
    compiled call raises (a Ctrl-C stops NumPy's loop at some trip, and a compiled call at its end):
    the loops of its body are lifted as the function's own are (frontend/host_loops.py)."""
    if not isinstance(node, cst.Try) or node.finalbody is not None or not node.handlers:
        return False
    for handler in node.handlers:
        caught = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
        if handler.type is None or any(dotted(e) not in _INTERRUPTS for e in caught):
            return False
    return True


def traps_float_errors(node: cst.CSTNode) -> bool:
    """A `try` whose body sets np.errstate, or a handler of which names FloatingPointError or
    ArithmeticError: NumPy may raise FloatingPointError inside it, which no compiled call raises
    (XLA computes inf and nan), so the functions it reaches stay NumPy (analysis/module.py)."""
    if not isinstance(node, (cst.Try, cst.TryStar)):
        return False
    for handler in node.handlers:
        caught = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
        if any(e is not None and (dotted(e) or "").split(".")[-1] in ("FloatingPointError", "ArithmeticError")
               for e in caught):
            return True
    return any(is_errstate_with(w) for w in nodes_of(node.body, cst.With))


def try_reached(module: cst.Module, functions: dict, where=None) -> frozenset[str]:
    """The module functions a `try` reaches: called inside one (of a function, or at module level),
    or by a function it reaches (`where`: of the tries it holds true of). An error one raises inside a compiled call leaves its arguments as
    they were before the call (docs/semantics.md, "State after the error"), where NumPy's `except`
    or `finally` sees them written up to the error: such a function's loops are not lifted
    (frontend/host_loops.py), and one that writes stays host code (analysis/module.py)."""
    methods: dict[str, list] = {}  # a method of a module class (`sim.step()`): the calls of each so named
    for c in module.body:
        for f in (c.body.body if isinstance(c, cst.ClassDef) else ()):
            if isinstance(f, cst.FunctionDef):
                methods.setdefault(f.name.value, []).append(f)

    def calls(tree, seen=frozenset()):
        found = set()
        for c in nodes_of(tree, cst.Call):
            if isinstance(c.func, cst.Name) and c.func.value in functions:
                found.add(c.func.value)
            elif isinstance(c.func, cst.Attribute) and c.func.attr.value in methods and c.func.attr.value not in seen:
                found |= set().union(*(calls(m.body, seen | {c.func.attr.value}) for m in methods[c.func.attr.value]))
        return found
    todo = set().union(*(calls(t) for t in nodes_of(module, (cst.Try, cst.TryStar))
                         if not interrupt_only(t) and (where is None or where(t))))
    seen = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= calls(functions[name].body)
    return frozenset(seen)


CLOCKS = frozenset(f"time.{n}" for n in ("time", "perf_counter", "monotonic", "process_time", "time_ns",
                                           "perf_counter_ns", "monotonic_ns", "process_time_ns"))
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "exception", "log"})
NUMPY_SAVES = frozenset(f"numpy.{n}" for n in ("save", "savez", "savez_compressed", "savetxt"))


def host_hint(name: str, node: cst.CSTNode, imports: ImportMap, why: str = "") -> str | None:
    """The rewrite that leaves `name()` compilable when `node` is what keeps it host code: a clock
    (time it from the caller) or a module-level logger (log from the caller); None for others."""
    if isinstance(node, (cst.Try, cst.TryStar)):
        return (f"compile what the `try` guards as a function of its own that writes no argument, called "
                f"inside the `try` (the exception it raises when the compiled call runs reaches the `except`), "
                f"and each loop of {name}() around it likewise")
    if not isinstance(node, cst.Call):
        return None
    if CLASS_USE in why:
        return (f"make the object outside {name}() and pass in what its loops use, its arrays and numbers "
                f"(`{name}(sim.u, sim.dt, ...)`), calling its methods from the caller")
    qual = imports.qualify(node.func)
    if qual in CLOCKS:
        clock = dotted(node.func)
        return (f"time the call from its caller, `t0 = {clock}(); out = {name}(...); elapsed = {clock}() - t0` "
                f"(the first call compiles: time a later one): inside a compiled program a clock would "
                f"not time its steps")
    if qual in NUMPY_SAVES:
        return (f"save from the caller: return what is saved (`return u, np.array(energy)`) and call "
                f"`{dotted(node.func)}(...)` with it after `{name}(...)`, which then compiles whole (file I/O "
                f"stays out of compiled programs)")
    f = node.func
    if qual is None and isinstance(f, cst.Attribute) and f.attr.value in LOG_METHODS and isinstance(f.value, cst.Name):
        return (f"log from the caller: return what the record shows and call `{dotted(f)}(...)` after the "
                f"call (a record made in the compiled program would name np2ref's line and function); "
                f"`print(...)` in its place prints from the compiled loop, in order (NPR039)")
    return None


def opaque_call(call: cst.Call, objects: dict[str, str], local_names, params=()) -> bool:
    """`SOURCE.draw(shape)`: a method of a module-level object np2ref cannot see into, called
    directly on it with no unpacked arguments. In a function that writes no parameter it is an
    ordered host call whose first call, made on the host, fixes its result's shape and dtype
    (rt/opaque.py npr_opaque); nothing the object can reach is changed by the compiled program."""
    f = call.func
    return (isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value not in local_names
            and objects.get(f.value.value) == "object" and not any(a.star for a in call.args)
            and all(_size_like(a.value, set(local_names) - set(params)) for a in call.args))


def _size_like(e: cst.BaseExpression, local_names) -> bool:
    """An argument that is a size or a number, never an array the function made: literals, names
    that are no local (parameters stay: npr_opaque refuses array data when traced), `a.shape`,
    `a.shape[0]`, `len(a)`, and arithmetic and tuples of these. A local (`obj.show(u)`) may be an
    array np2ref writes in place: the call stays host code (a graph break)."""
    if isinstance(e, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(e, cst.Name):
        return e.value in ("True", "False", "None") or e.value not in local_names
    if isinstance(e, cst.Attribute):
        return e.attr.value in ("shape", "size", "ndim")
    if isinstance(e, cst.Subscript):
        return isinstance(e.value, cst.Attribute) and e.value.attr.value == "shape"
    if isinstance(e, cst.Call):
        return isinstance(e.func, cst.Name) and e.func.value == "len"
    if isinstance(e, (cst.Tuple, cst.List)):
        return all(isinstance(el, cst.Element) and _size_like(el.value, local_names) for el in e.elements)
    if isinstance(e, cst.UnaryOperation):
        return _size_like(e.expression, local_names)
    if isinstance(e, cst.BinaryOperation):
        return _size_like(e.left, local_names) and _size_like(e.right, local_names)
    return False


def _opaque_receivers(func: cst.FunctionDef, col: Collected, objects) -> set[str]:
    """Module-level objects the function reads only to call their methods (opaque_call): their
    state changes, which npr_opaque's host calls see at run time; the name itself is watched on
    each call like any module-level value the program reads (rt/module_globals.py)."""
    params = param_names(func)
    if writes_parameters(col, params):
        return set()
    receivers = {id(c.func.value) for c in col.call_nodes if opaque_call(c, objects, col.locals, params)}
    names = {n for n, k in objects.items() if k == "object"}
    return {n for n in names if all(id(r) in receivers for r in _reads_of(func.body, n))}


def argument_readers(functions: dict, collected: dict, imports: ImportMap) -> frozenset[str]:
    """Module functions that cannot change an array handed to them: they write nothing (no store,
    no `op=`), call only NumPy's reading functions (the table or np.linalg, no `out=`), reading methods and
    builtins, and return no name, item or attribute of a parameter (a view module code could
    write). A module-level array handed to one (`beta = beta_for(CONTACT, R0)`) is no changing
    state (module_state.changing_globals)."""
    found = set()
    for name, col in collected.items():
        params = set(param_names(functions[name]))
        returned = [e.value for r in col.returns for e in (r.elements if isinstance(r, cst.Tuple) else [cst.Element(r)])]
        if col.writes or col.aug_names or any(_root(r) in params for r in returned):
            continue
        if all(_reading_call(c, imports) for c in col.call_nodes):
            found.add(name)
    return frozenset(found)


def _reading_call(call: cst.Call, imports: ImportMap) -> bool:
    if any(a.keyword is not None and a.keyword.value == "out" for a in call.args):
        return False
    qual = imports.qualify_numpy(call.func)
    if qual is not None:  # (np.linalg's functions write no argument: those outside the table too)
        return lookup(qual) is not None or qual.startswith("numpy.linalg.")
    func = call.func
    if isinstance(func, cst.Name):
        return func.value in fx.SAFE_BUILTINS
    return isinstance(func, cst.Attribute) and imports.qualify(func) is None and func.attr.value in READING_METHODS


def writes_parameters(col: Collected, params) -> bool:
    """Whether the function writes into (or `op=`s) one of its parameters."""
    return bool({_root(w.target) for w in col.writes} & set(params)
                or {name.value for name, _ in col.aug_names} & set(params))


def _reads_of(tree: cst.CSTNode, name: str) -> list[cst.Name]:
    """The Name nodes of `tree` that read `name` (not an attribute's or a keyword's name)."""
    found = []

    class V(cst.CSTVisitor):
        def visit_Attribute(self, node) -> bool:
            run_visitor(node.value, self)
            return False

        def visit_Arg(self, node) -> bool:
            run_visitor(node.value, self)
            return False

        def visit_Name(self, node) -> None:
            if node.value == name:
                found.append(node)
    run_visitor(tree, V())
    return found


def special_function_call(call: cst.Call, qual: str, local_names=frozenset()) -> bool:
    """`scipy.special.gamma(DIM / 2 + 1)`, `scipy.special.erf(x)`: a SciPy special function (pure),
    when SciPy is importable, translated as npr_special (rt/host.py): SciPy's own call while tracing
    on values known then (its result a constant of the program, the same value NumPy's program
    computes), a host call at run time on traced data for an elementwise one (a ufunc: the result's
    shape is the inputs' broadcast). Any other special function (`comb`, `logsumexp`) only where
    every argument is known while tracing by its form (known_at_trace); elsewhere it stays host code."""
    if not qual.startswith("scipy.special.") or any(a.star for a in call.args):
        return False
    try:
        import numpy as np
        import scipy.special  # (a converted program needs SciPy as its original did)
    except ImportError:
        return False
    fn = scipy.special
    for part in qual.split(".")[2:]:
        fn = getattr(fn, part, None)
    if fn is None or not callable(fn):
        return False
    if isinstance(fn, np.ufunc) and all(a.keyword is None for a in call.args):
        return True
    return bool(call.args) and all(known_at_trace(a.value, local_names) for a in call.args)


def known_at_trace(node: cst.BaseExpression, local_names=frozenset()) -> bool:
    """Whether an expression's value is known while tracing by its form: number and string
    literals, module-level names and attributes of them (`DIM`, `np.pi`; a module-level name the
    module changes makes the function host code on its own: module_state), and arithmetic,
    comparisons and tuples of those. A function's own names (parameters: floats are traced) are not."""
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(node, cst.Name):
        return node.value not in local_names
    if isinstance(node, cst.Attribute):
        return known_at_trace(node.value, local_names) and isinstance(node.value, (cst.Name, cst.Attribute))
    if isinstance(node, cst.UnaryOperation):
        return known_at_trace(node.expression, local_names)
    if isinstance(node, cst.BinaryOperation):
        return known_at_trace(node.left, local_names) and known_at_trace(node.right, local_names)
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(not isinstance(e, cst.StarredElement) and known_at_trace(e.value, local_names)
                   for e in node.elements)
    return False


def printed_at_run_time(call: cst.Call) -> bool:
    """`print(...)` to standard output: translated (rules/introspection.py, npr_print prints on
    the host when the program runs); `print(..., file=f)` writes to an object np2ref cannot
    see into, and `print(*xs)` has no fixed arguments: host code."""
    return all(a.star == "" and (a.keyword is None or a.keyword.value != "file") for a in call.args)


def is_dead_if(node: cst.CSTNode) -> bool:
    """`if 0:` / `if False:`: a body Python never runs (the `else` runs)."""
    if not isinstance(node, cst.If):
        return False
    test = node.test
    return (isinstance(test, cst.Integer) and test.evaluated_value == 0) or \
        (isinstance(test, cst.Name) and test.value == "False")


def dead_calls(func: cst.FunctionDef) -> frozenset[cst.Call]:
    """The calls in the body of a statically dead `if` (is_dead_if)."""
    return frozenset(call for node in nodes_of(func.body, cst.If) if is_dead_if(node)
                     for call in nodes_of(node.body, cst.Call))


def is_generator_draw(callee: cst.BaseExpression, params, local_names, objects: dict[str, str]) -> bool:
    """`rng.normal` where `rng` is a parameter (a Generator passed in) or a module-level NumPy
    generator: npr_random draws from that object at run time. A generator bound to a local name
    or reached through attributes could be a different object on the next call: host code."""
    return (isinstance(callee, cst.Attribute) and callee.attr.value in RANDOM_DRAWS
            and isinstance(callee.value, cst.Name)
            and (callee.value.value in params
                 or (callee.value.value not in local_names and objects.get(callee.value.value) == "generator")))


def _root(expr: cst.BaseExpression) -> str | None:
    """The name a dotted or called chain starts at: `SOURCE` in `SOURCE.draw` or `a.b().c`."""
    while isinstance(expr, (cst.Attribute, cst.Call, cst.Subscript)):
        expr = expr.value if not isinstance(expr, cst.Call) else expr.func
    return expr.value if isinstance(expr, cst.Name) else None
