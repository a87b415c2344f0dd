"""Loops of host functions lifted into module functions, so a `main()` that seeds, prints or
plots still has its time loop compiled (frontend/driver.py lifts module-level loops).

Most scripts put the whole simulation in `def main():`, which stays NumPy host code (NPR021)
because it also calls `np.random.seed`, prints, reads files or plots. Each loop at the top level
of such a function's body that does array work becomes a module function, its `def` hoisted
before the host function's (decorators included), its call where the loop stood:

    def main():                                 def _main_loop_7(F, nt, tau):
        np.random.seed(42)                          for it in range(nt):
        F = np.random.rand(8, 8)                        F[1:-1] += tau * (...)
        for it in range(nt):              ->    def main():
            F[1:-1] += tau * (...)                  np.random.seed(42)
        print(F.sum())                              F = np.random.rand(8, 8)
                                                    _main_loop_7(F, nt, tau)
                                                    print(F.sum())

Exact by construction, as for module-level loops, with the host function's locals in place of
module-level names: the loop's statements run on the same objects (arrays passed, not copied),
the names it binds that the function reads after it are returned and rebound, and names that
are not the function's locals stay global reads, the same names in the same module. What makes
a local of the host function differ from a local of the lifted one refuses the lift:

- the parameters are the locals whose value on entry the loop may read (a forward walk of one
  pass of its body; `i` of an inner `for i in ...` is bound before it is read) plus the names
  returned; each must be bound on every path to the loop (a parameter of the host function, a
  plain assignment, both branches of an `if`): a name assigned only later, only in a branch or
  only in an earlier loop would be unbound at the call, where Python raises only if the loop
  reaches the read;
- `global`/`nonlocal`, `return`, `yield`, `await`, `import`, `del`, a `def`, `lambda` or
  `class`, and calls that see their frame (`locals()`, `eval`, ...) in the loop; a name of the
  loop that a nested function, class, lambda or generator expression of the host function reads
  or binds (it would see the host's binding, not the lifted function's); a parameter bound by
  an import or a `def` in the host function; an `async def` host function;
- a name first bound in the loop and read after it, unless the loop certainly runs and binds it
  on every pass (`for t in range(N)`, N a literal or a local bound once, to an int literal, and
  not empty; no `break` or `continue` in the body; bound on every path through one pass), or the
  call can be made only where `range(...)` makes a trip and the first pass binds it before it
  could leave (frontend/lift_guard.py: `err` of the last sweep, read after a loop with `break`);
- as for module-level loops: two parameters that may share memory, a parameter bound to a list,
  dict or set (or defaulting to one).

The lift is dropped again when the pipeline refuses the lifted function or finds it is host work.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from ..analysis.positions import module_positions
from ..analysis.collect import param_names, star_names
from ..analysis.nodes import contains, run_visitor
from ..analysis.module_state import _ModuleState, local_names_of, names_bound, names_read
from ..analysis.names import ImportMap, dotted
from ..analysis.host_code import interrupt_only, try_reached
from . import carried_attrs, driver, lift_appends, lift_guard

_NOT_IN_LOOP = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal, cst.Return,
                cst.Yield, cst.Await, cst.Import, cst.ImportFrom, cst.Del)
# calls that see the frame they run in: in a lifted function, another frame than the host's
_SCOPE_CALLS = frozenset({"locals", "vars", "eval", "exec", "dir", "globals", "super"})
_CONTAINERS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)


def find_host_lifts(module: cst.Module, host) -> list[driver.Lift]:
    """The top-level loops of the module functions named in `host` worth compiling."""
    reached = try_reached(module, {f.name.value: f for f in module.body if isinstance(f, cst.FunctionDef)})
    hosts = [func for func in module.body if isinstance(func, cst.FunctionDef) and func.name.value in host
             and func.name.value not in reached  # (an error inside a lift: the arguments as before it)
             and func.asynchronous is None and isinstance(func.body, cst.IndentedBlock)
             and any(isinstance(s, (cst.For, cst.While)) for stmt in func.body.body
                     for s in (stmt.body.body if interrupt_only(stmt) else [stmt]))]
    if not hosts:
        return []  # no loop to lift: the module's analyses below cost more than its conversion
    positions = module_positions(module)
    functions = driver.module_objects(module)
    taken = names_read(module) | names_bound(module)
    shadowed = names_bound(module) | functions | ({"range"} if contains(module, cst.ImportStar) else set())
    lifts = []
    plain = carried_attrs.plain_classes(module)
    for func in hosts:
        lifts += _lifts_in(func, positions, functions, taken, shadowed, carried_attrs.instances(func, plain), module.code)
    return lifts


def _lifts_in(func: cst.FunctionDef, positions, functions: set[str], taken: set[str],
              shadowed: set[str], objects: dict, text: str) -> list[driver.Lift]:
    hoist = positions[func.decorators[0] if func.decorators else func].start.line
    scope = _Scope(func, shadowed)
    bound = set(scope.params)
    views: dict[str, str] = {}
    containers = set(scope.container_defaults)
    body = list(func.body.body)
    lifts = []
    for i, stmt in enumerate(body):
        for line in _simple_lines(stmt):
            views.update(driver._views_bound(line))
            containers |= driver._containers_bound(line)
        # a `try` that catches only a Ctrl-C: the loops of its body too, the handlers read after them
        inner = list(stmt.body.body) if interrupt_only(stmt) else [stmt]
        after = [s for h in stmt.handlers for s in h.body.body] if interrupt_only(stmt) else []
        start = bound
        for j, loop in enumerate(inner):
            if isinstance(loop, (cst.For, cst.While)) and driver._does_array_work(loop, functions):
                carry = objects and carried_attrs.carry(loop, i, objects, " " * positions[loop].start.column, taken)
                lift = _plan(loop, inner[j + 1:] + after + body[i + 1:], scope, start, positions, taken, carry or None,
                             text if loop is not stmt else None, body[:i] + inner[:j])
                if lift is not None and not driver._may_share_memory(lift.params, views):
                    lifts.append(lift_appends.held(dataclasses.replace(lift, hoist=hoist, host=scope.name), loop,
                                                   tuple(sorted(containers & set(lift.params)))))
            start, _ = definite([loop], start)
        bound, _ = definite([stmt], bound)
    return lifts


class _Scope:
    """What a host function's locals are: its parameters, the names it binds, those its nested
    functions and classes see, those bound by imports and defs, those it declares global."""

    def __init__(self, func: cst.FunctionDef, shadowed: set[str]):
        self.name = func.name.value
        p = func.params
        self.params = set(param_names(func)) | set(star_names(func))
        self.container_defaults = {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)
                                   if isinstance(x.default, _CONTAINERS)}
        self.locals = set(local_names_of(func)) | self.params
        self.captured: set[str] = set()
        self.objects: set[str] = set()  # modules and functions: never passed to a compiled call
        self.declared: set[str] = set()
        self.annotated: set[str] = set()
        scope = self

        class V(cst.CSTVisitor):
            def visit_FunctionDef(self, node):
                scope.objects.add(node.name.value)
                scope.captured |= names_read(node) | names_bound(node.body)
                return False

            visit_ClassDef = visit_FunctionDef

            def visit_Lambda(self, node):  # a generator expression reads its names when consumed
                scope.captured |= names_read(node)
                return False

            visit_GeneratorExp = visit_Lambda

            def visit_Import(self, node):
                scope.objects |= driver._bound_by(node)

            visit_ImportFrom = visit_Import

            def visit_AnnAssign(self, node):  # `x: float` makes `x` a local without binding it
                if isinstance(node.target, cst.Name):
                    scope.annotated.add(node.target.value)

            def visit_Global(self, node):
                scope.declared |= {n.name.value for n in node.names}

            visit_Nonlocal = visit_Global

        run_visitor(func.body, V())
        self.locals |= self.objects | self.annotated
        self.captured &= self.locals
        self.shadowed = shadowed | self.locals
        # locals bound once in the whole function, by `N = 40` in its body: their value is known
        counts = _ModuleState(ImportMap(cst.Module(body=[])))
        run_visitor(func.body, counts)
        self.constants = {
            small.targets[0].target.value: small.value.evaluated_value
            for stmt in func.body.body if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
            and isinstance(small.value, cst.Integer) and counts.bindings[small.targets[0].target.value] == 1
            and small.targets[0].target.value not in self.params | self.captured | self.declared}


def _plan(loop, later, scope: _Scope, bound: set[str], positions, taken, carry=None, text=None,
          earlier=()) -> driver.Lift | None:
    """The lift of a host function's loop (`carry`: with attributes read as locals, the loop as
    carried_attrs made it, its locals bound before it and those it binds written back after;
    `earlier`: the statements before it)."""
    node, carried = (loop, set()) if carry is None else (carry.node, {l for _, _, l in carry.pairs})
    if contains(node, _NOT_IN_LOOP) or _SCOPE_CALLS & _called_names(node):
        return None
    _, incoming = definite([node], set())
    binds = names_bound(node)
    if (incoming | binds) & (scope.captured | scope.objects | scope.declared):
        return None
    local, bound = scope.locals | carried, bound | carried
    returns = binds & local & (definite(later, set())[1] | set(carry.written if carry else ()))  # what may be read after it
    missing = returns - bound - _bound_by_every_pass(node, scope, bound)
    unset = _unset(node, missing, scope, earlier, taken) if missing else ()
    guard = None if unset is not None else lift_guard.guarded_range(node, missing, scope.shadowed)
    if unset is None and guard is None:
        return None  # the loop may leave it unbound (run zero times), where NumPy's read would raise
    params = (incoming & local) | (returns & bound)
    if not params <= bound:
        return None  # a local the loop may read on entry that may be unbound there
    name = f"_{scope.name}_loop_{positions[loop].start.line}"
    if name in taken:
        return None
    lift = driver.placed_run([loop], positions, name, tuple(sorted(params)), tuple(sorted(returns)), text)
    return lift and dataclasses.replace(lift, carry=carry, unset=unset or (), guard=guard)


def _unset(loop, missing: set[str], scope: _Scope, earlier, taken) -> tuple | None:
    """`((t, "range(...)"),)` where the one name the loop may leave unbound is the target `t` of a
    `for t in range(...)` that nothing before the loop binds (`for step in range(n): ... break`,
    `print(step)` after): bound to 0 in the lifted function before the loop, unbound again after the
    call where `len(range(...))` (read before it: arguments of names, literals and `len`/`int` calls,
    read twice to the same values) is 0, so a read after raises NumPy's UnboundLocalError. Else None."""
    it = lift_guard.range_text(loop, scope.shadowed)
    if it is None or missing != {loop.target.value}:
        return None
    name = loop.target.value
    if any(name in names_bound(s) for s in earlier) or f"_npr_ran_{name}" in taken | scope.locals:
        return None
    return ((name, it),)


def _bound_by_every_pass(loop, scope: _Scope, bound: set[str]) -> set[str]:
    """The names a `for t in range(N)` loop binds on every pass when it certainly runs at least
    once: N (start, stop, step) literals or locals bound once, to an int literal, before the loop;
    no `break` or `continue`. Empty for any other loop."""
    if not (isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and isinstance(loop.iter.func, cst.Name)
            and loop.iter.func.value == "range" and "range" not in scope.shadowed
            and 1 <= len(loop.iter.args) <= 3 and not contains(loop.body, (cst.Break, cst.Continue))):
        return set()
    values = [_int_value(a, scope, bound) for a in loop.iter.args]
    if any(v is None for v in values) or any(a.keyword is not None or a.star for a in loop.iter.args) \
            or (len(values) == 3 and values[2] == 0) or len(range(*values)) == 0:
        return set()
    return definite(loop.body.body, bound | names_bound(cst.Assign([cst.AssignTarget(loop.target)], cst.Name("_"))))[0]


def _int_value(arg: cst.Arg, scope: _Scope, bound: set[str]) -> int | None:
    value = arg.value
    if isinstance(value, cst.Name) and value.value in bound:
        return scope.constants.get(value.value)
    negative = isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
    value = value.expression if negative else value
    if isinstance(value, cst.Integer):
        return -value.evaluated_value if negative else value.evaluated_value
    return None


def definite(stmts, bound: set[str]) -> tuple[set[str], set[str]]:
    """A forward walk: the names bound on every path after `stmts` when `bound` were before,
    and the names `stmts` may read before binding them (on entry)."""
    incoming: set[str] = set()
    bound = set(bound)
    for stmt in stmts:
        bound = _step(stmt, bound, incoming)
    return bound, incoming


def _step(stmt, bound: set[str], incoming: set[str]) -> set[str]:
    def reads(node):
        incoming.update(names_read(node) - bound)

    def block(node, start):
        after, inner = definite(node.body if node is not None else [], start)
        incoming.update(inner)
        return after

    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            _small_reads(small, reads)
            bound = (bound | names_bound(small)) - (names_read(small) if isinstance(small, cst.Del) else set())
        return bound
    if isinstance(stmt, cst.If):
        reads(stmt.test)
        body = block(stmt.body, bound)
        other = bound if stmt.orelse is None else (
            _step(stmt.orelse, bound, incoming) if isinstance(stmt.orelse, cst.If) else block(stmt.orelse.body, bound))
        return body & other
    if isinstance(stmt, cst.For):
        reads(stmt.iter)
        block(stmt.body, bound | names_bound(cst.Assign([cst.AssignTarget(stmt.target)], cst.Name("_"))))
    elif isinstance(stmt, cst.While):
        reads(stmt.test)
        block(stmt.body, bound)
    elif isinstance(stmt, cst.With):
        names: set[str] = set()
        for item in stmt.items:
            reads(item.item)
            if item.asname is not None:
                for part in _target_parts(item.asname.name):
                    reads(part)
                names |= driver._bound_by(item.asname.name) if not isinstance(item.asname.name, (
                    cst.Subscript, cst.Attribute)) else set()
        after = block(stmt.body, bound | names)
        if all(isinstance(i.item, cst.Call) and dotted(i.item.func) in ("np.errstate", "numpy.errstate")
               for i in stmt.items):
            return after  # (np.errstate's exit lets every exception through)
    elif isinstance(stmt, (cst.Try, cst.TryStar)):
        return _try_step(stmt, bound, block)
    else:  # match, anything else: every name it mentions may be read on entry
        reads(stmt)
        return bound
    if getattr(stmt, "orelse", None) is not None:
        block(stmt.orelse.body, bound)
    return bound  # a loop may run zero times; a `with` may swallow an exception half way


def _try_step(stmt, bound: set[str], block) -> set[str]:
    """The names bound after a `try`: on the paths that go on past it (the body then the `else`,
    and each handler that does not end in a jump, entered with what was bound before the body: an
    error may come at its start; its `as` name unbound at its end), then whatever the `finally`
    binds. A handler may be entered with the body's names half bound: it reads them on entry."""
    done = block(stmt.body, bound)
    paths = [block(stmt.orelse.body, done) if stmt.orelse is not None else done]
    for handler in stmt.handlers:
        named = set() if handler.name is None else driver._bound_by(handler.name.name)
        after = block(handler.body, bound | named) - named
        if not _ends_in_jump(handler.body.body):
            paths.append(after)
    after = set.intersection(*paths)
    return after | block(stmt.finalbody.body, bound) if stmt.finalbody is not None else after


def _ends_in_jump(body) -> bool:
    last = body[-1] if body else None
    return isinstance(last, cst.SimpleStatementLine) and isinstance(
        last.body[-1], (cst.Continue, cst.Break, cst.Return, cst.Raise))


def _small_reads(small, reads) -> None:
    """The names a simple statement reads before it binds: an assignment's value and the parts
    of its targets that are not plain names (`u[i] = v` reads `u` and `i`)."""
    if isinstance(small, (cst.Assign, cst.AnnAssign)):
        if small.value is not None:
            reads(small.value)
        targets = small.targets if isinstance(small, cst.Assign) else [small]
        for t in targets:
            for part in _target_parts(t.target):
                reads(part)
    else:  # `del x` reads `x` too: deleting an unbound name raises
        reads(small)


def _target_parts(target) -> list:
    if isinstance(target, cst.Name):
        return []
    if isinstance(target, (cst.Tuple, cst.List)):
        return [p for e in target.elements for p in _target_parts(e.value)]
    if isinstance(target, cst.StarredElement):
        return _target_parts(target.value)
    return [target]


def _called_names(node) -> set[str]:
    found: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Call(self, call):
            if isinstance(call.func, cst.Name):
                found.add(call.func.value)

    run_visitor(node, V())
    return found


def _simple_lines(stmt):
    found = []

    class V(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node):
            found.append(node)

        def visit_FunctionDef(self, node):
            return False

        visit_ClassDef = visit_FunctionDef

    run_visitor(stmt, V())
    return found
