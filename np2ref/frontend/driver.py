"""Module-level driver loops lifted into functions, so a script's array work is compiled.

A script often does its work at module level: set up arrays, then a time loop that updates
them, then prints. Left as it is, that loop runs as NumPy host code. `convert` lifts each such
loop (at module level or in the `if __name__ == "__main__":` block) into a function of the
names it reads, called where the loop stood, which the rest of the pipeline then compiles:

    u = np.zeros(64)                       u = np.zeros(64)
    for t in range(nt):             ->     def _main_loop_5(u, nt, alpha):
        u[1:-1] += alpha * (...)               for t in range(nt):
    print(u.sum())                                 u[1:-1] += alpha * (...)
                                           _main_loop_5(u, nt, alpha)
                                           print(u.sum())

Exact by construction: the function runs the same statements on the same objects (arrays are
passed, not copied: the compiled call writes back what it mutates), and every name the loop binds
that anything else reads is returned and rebound. A loop is lifted only when every such name was
bound before the loop (so a loop that runs zero times leaves them as NumPy does), or is bound on
every trip of a loop that surely makes one (`for t in range(STEPS)`, STEPS a module constant
>= 1, no `break`/`continue` to skip the binding: _binds_every_trip). The lift is dropped again
when the pipeline refuses the function, finds it is host work (a `print` to a file in the loop, a call
np2ref cannot see into) or would run it as a Python loop, traced once per trip (NPR033): that
loop then stays NumPy code, as before. The module's small constants (literals and np.array of
literals, bound once, never changed: analysis/module_state.py) are not passed but read as
module names, as its functions read them: known when traced (a roll's shift, a range), and not
taken for state the call may change.

The same holds for the loops at the top level of a host function's body (a `main()` that seeds,
prints or plots): frontend/host_loops.py finds them, with the function's locals in place of
module-level names, and says what more it takes there for the argument to stay true (a name the
loop may read must be bound on every path to it; nothing the loop binds may be seen by a nested
function of the host; no `return`, `yield`, `global` in the loop). Their `def` goes before the
host function's, as a main-block loop's goes before the `if __name__ == "__main__":` line.

The lift works on the text (4 more spaces for the loop's lines, a `def` line before it, a
`return` and the call after it; a hoisted def's lines indented as a module function's), so positions map back
to the user's file line by line (`apply`'s `where`, composed into the pipeline's one LineMap:
frontend/lines.py).
"""

from __future__ import annotations

import dataclasses
import io
import tokenize

import libcst as cst

from ..analysis.positions import module_positions
from ..analysis.module_state import changing_globals, globals_read, names_bound, names_read
from ..analysis.names import ImportMap
from ..analysis.nodes import run_visitor
from . import lift_appends, lift_guard

PREFIX = "_main_loop_"


@dataclasses.dataclass(frozen=True)
class Lift:
    name: str
    start: int          # the loop's first line (1-based)
    end: int            # its last line
    indent: str
    params: tuple[str, ...]
    returns: tuple[str, ...]
    hoist: int | None = None  # in the main block: the `if __name__ ...` line its def goes before
    host: str | None = None   # in a host function (frontend/host_loops.py): its name; the def goes before it
    # the lists, dicts or sets the loop reads: it cannot be lifted whole, its array work may be as
    # steps between the statements that use them (frontend/host_steps.py)
    holds: tuple[str, ...] = ()
    # the lists it only appends to once a trip: made anew in the lifted function, the caller's
    # extended after the call (frontend/lift_appends.py); `holds` (steps) when that fails
    appends: tuple[str, ...] = ()
    # attributes of an object the loop reads as locals of their own (frontend/carried_attrs.py)
    carry: object = None
    # (loop target, its `range(...)`): first bound by a `for` that may run no trip, read after it: 0
    # in the lifted function before the loop, unbound again after the call where no trip ran
    unset: tuple[tuple[str, str], ...] = ()
    # `range(...)` of a `for` whose call is made only where it makes a trip (frontend/lift_guard.py)
    guard: str | None = None


def find_lifts(module: cst.Module) -> list[Lift]:
    """The module-level loops worth compiling, in source order."""
    statements = list(_driver_statements(module))
    if not any(isinstance(stmt, (cst.For, cst.While)) for stmt in statements):
        return []  # nothing to lift: the module's analyses below cost more than its conversion
    positions = module_positions(module)
    functions = module_objects(module)
    global_reads = set().union(*(globals_read(f) for f in _all_functions(module)))
    lifts, bound, views, containers = [], set(), {}, set()
    main = None
    # the module's own small constants (bound once at top level to literals, or to np.array of
    # literals, never changed: `maxIter = 30`, `v = np.array([[1, 1], ...])`) are read as module
    # names, not passed: the compiled loop knows them when traced (a roll's shift, a range), as
    # the module's functions do. Other arrays are passed: as constants they would be compiled
    # into the program (a 72 MB one cost 3.6 s more than passing it).
    imports = ImportMap.of(module)
    changing = changing_globals(module, imports)
    constants = _literal_constants(module, imports) - changing
    for i, stmt in enumerate(statements):
        views.update(_views_bound(stmt))
        containers |= _containers_bound(stmt)
        if isinstance(stmt, cst.If):
            main = positions[stmt].start.line if _is_main_test(stmt.test) else main
        if isinstance(stmt, (cst.For, cst.While)) and _does_array_work(stmt, functions):
            lift = _plan(stmt, statements[i + 1:], positions, bound - constants, functions, global_reads,
                         _binds_every_trip(stmt, statements, changing))
            if lift is not None and _may_share_memory(lift.params, views):
                lift = None  # `v = u[1:]`: passed together, the compiled call would refuse them (NPR206)
            if lift is not None and containers & set(lift.params):
                # a list would reach the compiled call as an array (`+` would add, not join)
                lift = lift_appends.held(lift, stmt, tuple(sorted(containers & set(lift.params))))
            if lift is not None:
                # a def inside the main block is no module function: it goes before the block
                lifts.append(dataclasses.replace(lift, hoist=main) if lift.indent else lift)
        bound |= _bound_by(stmt)
    return lifts


def module_objects(module: cst.Module) -> set[str]:
    """The module-level functions, classes and imported modules: read where they are, never passed."""
    names = {s.name.value for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            names |= {n for s in stmt.body if isinstance(s, (cst.Import, cst.ImportFrom)) for n in _bound_by(s)}
    return names


def apply(text: str, lifts: list[Lift]) -> tuple[str, list[tuple[int, int]]]:
    """The text with the loops lifted, and for each of its lines (1-based, index 0 unused) the
    original line and how many columns it moved right."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    out: list[str] = []
    where: list[tuple[int, int]] = [(0, 0)]

    def emit(line: str, origin: int, shift: int = 0) -> None:
        out.append(line)
        where.append((origin, shift))

    def define(lift: Lift) -> None:
        shift = 4 - len(lift.indent) if lift.hoist else 4
        pad = "" if lift.hoist else lift.indent
        emit(f"{pad}def {lift.name}({', '.join(lift_appends.params(lift))}):\n", lift.start)
        for line in lift_appends.define_lines(lift, pad) + [f"{pad}    {name} = 0\n" for name, _ in lift.unset]:
            emit(line, lift.start)
        text = lift.carry.lines if lift.carry is not None else lines[lift.start - 1:lift.end]
        for i, line in enumerate(text, lift.start - 1):
            body = line[len(lift.indent):] if lift.hoist else line
            emit("    " + body if line.strip() else line, i + 1, shift)
        if lift_appends.returned(lift):
            emit(f"{pad}    return {', '.join(lift_appends.returned(lift))}\n", lift.end)
        for _ in range(2 if lift.host else 1 if lift.hoist else 0):
            emit("\n", lift.start)

    def call(lift: Lift) -> None:
        names = lift_appends.targets(lift)
        targets = f"{', '.join(names)} = " if names else ""
        if lift.carry is not None:
            emit(lift.carry.before(lift.indent), lift.start)
        for name, trips in lift.unset:  # (its arguments read as the loop reads them, before it)
            emit(f"{lift.indent}_npr_ran_{name} = len({trips}) > 0\n", lift.start)
        if lift.guard is not None:  # (no trip: the loop does nothing)
            emit(f"{lift.indent}if len({lift.guard}) > 0:\n", lift.start)
        inside = "    " if lift.guard is not None else ""
        emit(f"{inside}{lift.indent}{targets}{lift.name}({', '.join(lift_appends.params(lift))})\n", lift.end)
        for name, _ in lift.unset:
            emit(f"{lift.indent}if not _npr_ran_{name}:\n{lift.indent}    del {name}\n", lift.end)
        for line in lift_appends.extend_lines(lift) + ([lift.carry.after(lift.indent)] if lift.carry else []):
            if line:
                emit(inside + line, lift.end)

    starts = {lift.start: lift for lift in lifts}
    hoisted: dict[int, list[Lift]] = {}
    for lift in lifts:
        if lift.hoist:
            hoisted.setdefault(lift.hoist, []).append(lift)
    i = 0
    while i < len(lines):
        for lift in hoisted.get(i + 1, []):
            define(lift)
        lift = starts.get(i + 1)
        if lift is None:
            emit(lines[i], i + 1)
            i += 1
            continue
        if not lift.hoist:
            define(lift)
        call(lift)
        i = lift.end
    return "".join(out), where


def _driver_statements(module: cst.Module):
    """Module-level statements, with those of the `if __name__ == "__main__":` block in place."""
    for stmt in module.body:
        if isinstance(stmt, cst.If) and _is_main_test(stmt.test) and stmt.orelse is None:
            yield stmt  # its own bindings count once, before its loops are looked at
            yield from stmt.body.body
        else:
            yield stmt


def _is_main_test(test: cst.BaseExpression) -> bool:
    return (isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value == "__name__"
            and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal)
            and isinstance(test.comparisons[0].comparator, cst.SimpleString)
            and test.comparisons[0].comparator.evaluated_value == "__main__")


def _does_array_work(loop: cst.CSTNode, functions: set[str]) -> bool:
    """A store into a subscript, an augmented assignment, `out=`, or a call of a module function."""
    found = []

    class V(cst.CSTVisitor):
        def visit_AugAssign(self, node):
            found.append(node)

        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Subscript):
                found.append(node)

        def visit_Call(self, node):
            if (isinstance(node.func, cst.Name) and node.func.value in functions) or any(
                    a.keyword is not None and a.keyword.value == "out" for a in node.args):
                found.append(node)

    run_visitor(loop, V())
    return bool(found)


def _plan(loop, later, positions, bound: set[str], functions: set[str], global_reads: set[str],
          every_trip: frozenset[str] = frozenset()) -> Lift | None:
    reads = names_read(loop)
    returns = tuple(sorted(n for n in _bound_by(loop) if n in global_reads or _read_later(n, later)))
    # a `for` loop's own target is bound before the body reads it: its value from before the loop
    # is needed only where it is returned (a loop that makes no trip); passed in, it was an unbound
    # name after an earlier lifted loop over `t` (which binds it in its function, not returned)
    target = {loop.target.value} if isinstance(loop, cst.For) and isinstance(loop.target, cst.Name) else set()
    params = tuple(sorted((reads & bound) - functions - (target - set(returns))))
    guard = None
    if not set(returns) <= bound | every_trip:  # a name first bound in the loop and read later, maybe never bound:
        guard = lift_guard.guarded_range(loop, set(returns) - bound - every_trip, bound | functions)
        if guard is None:
            return None  # NumPy's loop kept
    lift = placed(loop, positions, f"{PREFIX}{positions[loop].start.line}", params, returns)
    return lift and dataclasses.replace(lift, guard=guard)


def placed(loop, positions, name: str, params: tuple[str, ...], returns: tuple[str, ...]) -> Lift | None:
    """The lift of `loop` into a function `name`, or None when moving its text would change it."""
    return placed_run([loop], positions, name, params, returns)


def placed_run(stmts, positions, name: str, params: tuple[str, ...], returns: tuple[str, ...],
               text: str | None = None) -> Lift | None:
    """The lift of consecutive statements of one block into a function `name` (a loop, or a
    host loop's step: frontend/host_steps.py, which passes the module's `text`), or None when
    moving their text would change them."""
    first, last = positions[stmts[0]], positions[stmts[-1]]
    code = cst.Module(body=[stmts[0].with_changes(leading_lines=()), *stmts[1:]]).code  # blank lines above stay
    if _multiline_strings(code):
        return None  # indenting the loop would change a string's contents
    indent = " " * first.start.column
    # a statement's rendered code is indented relative to it; the text has the real columns
    lines = code.splitlines()[1:] if text is None else text.splitlines()[first.start.line:last.end.line]
    if not all(line.startswith(indent) or not line.strip() for line in lines):
        return None  # a continuation line left of the loop (or tabs): moving it would break it
    return Lift(name, first.start.line, last.end.line, indent, params, returns)


def _literal_constants(module: cst.Module, imports: ImportMap) -> set[str]:
    """Names a top-level statement binds to a literal, a tuple or list of literals, or
    `np.array(...)` / `np.asarray(...)` of one."""
    def literal(e) -> bool:
        if isinstance(e, (cst.Integer, cst.Float, cst.SimpleString)):
            return True
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
            return literal(e.expression)
        if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Divide, cst.Multiply, cst.Add, cst.Subtract)):
            return literal(e.left) and literal(e.right)  # `1 / 36`
        if isinstance(e, (cst.Tuple, cst.List)):
            return all(not isinstance(x, cst.StarredElement) and literal(x.value) for x in e.elements)
        return isinstance(e, cst.Name) and e.value in ("True", "False", "None")

    found = set()
    for stmt in module.body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
            continue
        value = small.value
        if isinstance(value, cst.Call) and imports.qualify_numpy(value.func) in ("numpy.array", "numpy.asarray") \
                and len(value.args) == 1 and value.args[0].keyword is None and not value.args[0].star:
            value = value.args[0].value
        if literal(value):
            found.add(small.targets[0].target.value)
    return found


def _binds_every_trip(loop, statements, changing: frozenset[str]) -> frozenset[str]:
    """The names a `for t in range(N)` loop binds on every trip, when it makes at least one: N a
    positive literal, or a module name bound to one that never changes (not in `changing`); the
    names bound by the body's own simple statements, with no `break`, `continue`, `return`, `try`
    or `del` in it (outside nested loops and functions: lift_guard.leaves_pass) to skip them. A name only such a loop binds
    is bound after it, as the lifted function's return gives it back."""
    if not (isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and isinstance(loop.iter.func, cst.Name)
            and loop.iter.func.value == "range" and len(loop.iter.args) == 1 and not loop.iter.args[0].keyword
            and not loop.iter.args[0].star and loop.orelse is None):
        return frozenset()
    count = loop.iter.args[0].value
    if isinstance(count, cst.Name):
        values = [s.body[0].value for s in statements if isinstance(s, cst.SimpleStatementLine)
                  and len(s.body) == 1 and isinstance(s.body[0], cst.Assign) and len(s.body[0].targets) == 1
                  and isinstance(s.body[0].targets[0].target, cst.Name)
                  and s.body[0].targets[0].target.value == count.value]
        count = values[0] if len(values) == 1 and count.value not in changing else None
    if not (isinstance(count, cst.Integer) and count.evaluated_value > 0) \
            or any(lift_guard.leaves_pass(s) for s in loop.body.body):
        return frozenset()
    return frozenset().union(*(names_bound(s) for s in loop.body.body if isinstance(s, cst.SimpleStatementLine)))


def _views_bound(stmt: cst.CSTNode) -> dict[str, str]:
    """name -> the module-level name it may be a view of (or the same object as), for each
    `v = u[1:]`, `w = u`, `t = u.T`, `r = u.reshape(...)`, `a = np.asarray(u)` the statement makes."""
    out: dict[str, str] = {}
    smalls = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []
    for small in smalls:
        if not isinstance(small, cst.Assign):
            continue
        root = _view_root(small.value)
        if root is None:
            continue
        for target in small.targets:
            for name in _bound_by(cst.Assign([target], cst.Name("_"))):
                out[name] = root
    return out


def _containers_bound(stmt: cst.CSTNode) -> set[str]:
    """Names the statement binds to a list, dict or set (a display, a comprehension, `list(...)`)."""
    out: set[str] = set()
    for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []):
        value = getattr(small, "value", None)
        if isinstance(small, (cst.Assign, cst.AnnAssign)) and (
                isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp))
                or (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
                    and value.func.value in ("list", "dict", "set"))):
            targets = small.targets if isinstance(small, cst.Assign) else [small]
            for t in targets:
                out |= names_bound(cst.Assign([cst.AssignTarget(t.target)], cst.Name("_")))
    return out


def _view_root(expr: cst.BaseExpression) -> str | None:
    """The name `expr` may be a view of: through subscripts, attributes and calls of methods or
    functions of it (a copy is then assumed to be a view: never wrong, only cautious)."""
    while True:
        if isinstance(expr, cst.Name):
            return expr.value
        if isinstance(expr, (cst.Subscript, cst.Attribute)):
            expr = expr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) \
                and isinstance(expr.func.value, cst.Name) and not expr.args:
            expr = expr.func.value  # `u.view()`, `u.ravel()`, `u.copy()`
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in (
                "reshape", "transpose", "swapaxes", "view", "ravel", "squeeze", "asarray", "flip", "diagonal"):
            expr = expr.func.value if expr.func.attr.value not in ("asarray", "flip") else (
                expr.args[0].value if expr.args else None)
        else:
            return None


def _may_share_memory(params, views: dict[str, str]) -> bool:
    def base(name, seen=()):
        return base(views[name], seen + (name,)) if name in views and name not in seen else name
    bases = [base(p) for p in params]
    return len(set(bases)) != len(bases)


def _read_later(name: str, later) -> bool:
    """Whether module-level code after the loop reads `name` before binding it again."""
    for stmt in later:
        if isinstance(stmt, cst.If) and _is_main_test(stmt.test):
            continue  # its statements follow one by one
        if isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, cst.Assign) for s in stmt.body):
            if any(name in names_read(s.value) for s in stmt.body):
                return True
            if name in _bound_by(stmt):
                return False
            continue
        if isinstance(stmt, cst.For) and name in names_read(stmt.iter):
            return True
        if isinstance(stmt, cst.For) and name in _bound_by(stmt.target):
            return False
        if name in names_read(stmt):
            return True
    return False


def _bound_by(stmt: cst.CSTNode) -> set[str]:
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return {stmt.name.value}
    if isinstance(stmt, cst.If) and _is_main_test(stmt.test):
        return set()  # its statements are walked one by one
    if isinstance(stmt, (cst.Name, cst.Tuple, cst.List)):  # a loop target
        stmt = cst.Assign([cst.AssignTarget(stmt)], cst.Name("_"))
    if isinstance(stmt, (cst.Import, cst.ImportFrom)):
        if isinstance(stmt.names, cst.ImportStar):
            return set()
        return {(a.asname.name.value if a.asname else cst.Module(body=[]).code_for_node(a.name).split(".")[0])
                for a in stmt.names if a.asname is None or isinstance(a.asname.name, cst.Name)}
    return names_bound(stmt)


def _all_functions(module: cst.Module):
    found = []

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, node):
            found.append(node)

    run_visitor(module, V())
    return found


def _multiline_strings(code: str) -> bool:
    try:
        return any(tok.type == tokenize.STRING and tok.start[0] != tok.end[0]
                   for tok in tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return True
