"""Nested functions and lambdas lifted to module functions, their closures passed as arguments.

    def step(u, n):                          def step__loop_body(c, grid):
        c = 0.1                                  grid[1:-1] += c * (grid[2:] - grid[:-2])
        def loop_body(grid):
            grid[1:-1] += c * (...)   ->     def step(u, n):
        for _ in range(n):                       c = 0.1
            loop_body(u)                         # loop_body: lifted to step__loop_body
                                                 (blank lines: the def's other lines)
                                                 for _ in range(n):
                                                     step__loop_body(c, u)

The rest of the pipeline then translates the helper like any module helper: a captured array the
helper writes is a parameter it mutates, so the caller's array becomes a Ref (analysis/effects).

Exact because a closure reads its free variables when it runs (late binding), and the lifted call
passes them when it is called: the same objects at the same moment. That holds under conditions
`refusal` checks (else the fence reports NPR014 with the reason): the def (or `name = lambda`) is
a statement of the function's own body, not decorated, its defaults are literals (evaluated
once, where the def stood), it uses no `nonlocal`/`global`; its name is bound nowhere else and only
ever called (a function returned, stored or passed on escapes its frame); it is not recursive;
no call of it comes before its def; and no other scope in the function binds a name it captures
(a call there would pass that scope's value). Free variables come from Python's own symbol table.

The lift works on the text, line for line: the inner def's lines become blank lines (the first a
comment naming the helper), the helper goes before the function, and `where` maps each line of
the lifted text back to the user's line (composed into the pipeline's one LineMap, frontend/lines.py).
"""

from __future__ import annotations

import dataclasses
import symtable

import libcst as cst

from ..analysis.positions import module_positions
from ..analysis.names import _Bindings
from ..analysis.nodes import contains, visit_every, run_visitor


@dataclasses.dataclass
class _Inner:
    name: str
    stmt: cst.BaseStatement          # the FunctionDef, or the `name = lambda ...` line
    index: int                        # its place in the function's body
    node: cst.CSTNode                 # the FunctionDef or the Lambda
    line: int                         # the line Python's symbol table knows it by
    block: tuple = ()                 # for one in a loop body: that body's statements (else ())
    pos: int = 0                      # its place in `block`
    caps: tuple[str, ...] = ()        # the outer names it reads (after inner helpers are expanded)
    lifted: str = ""
    why: str | None = None            # why it cannot be lifted


@dataclasses.dataclass(frozen=True)
class Lifted:
    text: str
    where: list                       # lifted line -> (original line, columns moved right)
    names: dict                       # lifted helper -> (outer function, inner name)


def _lambda_assign(stmt) -> tuple[str, cst.Lambda] | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(
                small.targets[0].target, cst.Name) and isinstance(small.value, cst.Lambda):
            return small.targets[0].target.value, small.value
    return None


class _Uses(cst.CSTVisitor):
    """Every load of `names` in a tree: (name, the Call it is the callee of or None, node)."""

    def __init__(self, names):
        self.names = names
        self.found: list[tuple[str, cst.Call | None, cst.CSTNode]] = []
        self._callees: dict = {}

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self._callees[node.func] = node

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        run_visitor(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        run_visitor(node.value, self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        for part in (node.default, node.annotation):
            if part is not None:
                run_visitor(part, self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.found.append((node.value, self._callees.get(node), node))


def _bound(*trees) -> set[str]:
    b = _Bindings()
    for t in trees:
        if t is not None:
            visit_every(b, t)
    return b.names


_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)


def _literal(expr) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, _LITERALS) or (isinstance(expr, cst.Name) and expr.value in ("None", "True", "False"))


def _defaults(params: cst.Parameters):
    return [p.default for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.default is not None]


def _table(parent: symtable.SymbolTable, name: str, line: int) -> symtable.SymbolTable | None:
    found = [t for t in parent.get_children() if t.get_name() == name and t.get_lineno() == line]
    return found[0] if len(found) == 1 else None


def inner_functions(func: cst.FunctionDef, table: symtable.SymbolTable | None, positions) -> dict[str, _Inner]:
    """The nested defs and `name = lambda` statements of a function's own body, each with its
    captures and, where it cannot be lifted, why (the fence's NPR014 message)."""
    inners: dict[str, _Inner] = {}
    twice: set[str] = set()
    for i, stmt, block, pos in _definitions(func):
        if isinstance(stmt, cst.FunctionDef):
            name, node, line = stmt.name.value, stmt, positions[stmt.name].start.line
        else:
            name, node = _lambda_assign(stmt)
            line = positions[node].start.line
        if name in inners:
            twice.add(name)
        inners[name] = _Inner(name, stmt, i, node, line, block, pos)
    for inner in inners.values():
        inner.why = _own_refusal(func, inner, table, twice)
    _expand_captures(func, inners)
    return inners


def _definitions(func: cst.FunctionDef):
    """(index in the function's body, statement, loop body or (), index there) of each nested
    def and `name = lambda` statement of the function's body and of the bodies of its loops
    (nested loops included; not branches: there the def may not run)."""
    def walk(stmts, top, inside):
        for i, stmt in enumerate(stmts):
            at = i if top is None else top
            if isinstance(stmt, cst.FunctionDef) or _lambda_assign(stmt) is not None:
                yield at, stmt, inside, i
            elif isinstance(stmt, (cst.For, cst.While)) and isinstance(stmt.body, cst.IndentedBlock):
                yield from walk(stmt.body.body, at, tuple(stmt.body.body))

    return list(walk(func.body.body, None, ()))


def _own_refusal(func, inner: _Inner, table, twice) -> str | None:
    node, name = inner.node, inner.name
    what = "lambda" if isinstance(node, cst.Lambda) else "nested function"
    if isinstance(node, cst.FunctionDef) and (node.decorators or node.asynchronous is not None):
        return f"{what} `{name}` is decorated or async"
    if contains(node, (cst.Nonlocal, cst.Global)):
        return f"{what} `{name}` rebinds an enclosing name (`nonlocal`/`global`)"
    if any(not _literal(d) for d in _defaults(node.params)):
        return f"{what} `{name}` has a default value computed when the def runs"
    rest = func.deep_remove(inner.stmt)  # the function without this def
    if name in twice or name in _bound(rest.params, rest.body) or name in _bound(node.params, node.body):
        return f"`{name}` is bound more than once"
    own = _table(table, "lambda" if isinstance(node, cst.Lambda) else name, inner.line) if table else None
    if own is None:
        return f"np2ref cannot tell the scope of {what} `{name}` (two on one line?)"
    inner.caps = tuple(sorted(own.get_frees()))
    if name in inner.caps:
        return f"{what} `{name}` calls itself: recursion is not translated"
    uses = _Uses({name})
    run_visitor(rest.body, uses)
    if any(call is None for _, call, _ in uses.found):
        return f"{what} `{name}` escapes: it is returned, stored or passed on, not only called"
    if inner.block:  # in a loop body: each call must come after it in that body, as the def runs
        after = _Uses({name})  # first in each pass (Python binds the name anew there, each pass)
        for stmt in inner.block[inner.pos + 1:]:
            run_visitor(stmt, after)
        if len(after.found) != len(uses.found):
            return (f"{what} `{name}` is defined in a loop body and called outside it or before "
                    f"its definition there")
    return None


def _expand_captures(func, inners: dict[str, _Inner]) -> None:
    """A helper that calls another inner helper captures what that one captures; refusals
    spread to callers; a cycle is recursion; the first call must follow the def; and at every
    call the captured names must be the function's own (not rebound by a scope around the call)."""
    resolved: dict[str, set[str] | None] = {}

    def resolve(inner: _Inner, stack: tuple[str, ...]) -> set[str] | None:
        if inner.name in resolved:
            return resolved[inner.name]
        caps: set[str] | None = set()
        for c in inner.caps if inner.why is None else ():
            other = inners.get(c)
            if other is None:
                caps.add(c)
                continue
            if c in stack:
                inner.why = f"`{inner.name}` is recursive (through `{c}`): recursion is not translated"
                break
            sub = resolve(other, (*stack, inner.name))
            if sub is None:
                inner.why = inner.why or f"`{inner.name}` calls `{c}`, which np2ref does not translate"
                break
            caps |= sub
        resolved[inner.name] = caps = None if inner.why is not None else caps
        return caps

    for inner in inners.values():
        caps = resolve(inner, ())
        if caps is not None:
            inner.caps = tuple(sorted(caps))
    inner_stmts = {i.stmt for i in inners.values()}
    for inner in inners.values():
        if inner.why is not None:
            continue
        scopes = _CallScopes(inner)
        run_visitor(func.body, scopes)
        if scopes.clash:
            inner.why = (f"`{inner.name}` reads `{sorted(scopes.clash)[0]}`, which a scope around one of "
                         f"its calls in {func.name.value}() binds again")
            continue
        first = _first_use(func, inner.name, inners, inner_stmts, set())
        if first is not None and first <= inner.index and not inner.block:
            inner.why = f"`{inner.name}` is called before its def runs"


class _CallScopes(cst.CSTVisitor):
    """The captured names that a scope around a call of the helper binds again (a call there
    would pass that scope's value, not the function's)."""

    def __init__(self, inner: _Inner):
        self.inner = inner
        self.stack: list[set[str]] = []
        self.clash: set[str] = set()

    def on_visit(self, node) -> bool:
        if node is self.inner.node:
            return False
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            self.stack.append(_bound(node.params, node.body))
        elif isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            self.stack.append(_bound(node))
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == self.inner.name:
            self.clash |= set(self.inner.caps) & set().union(*self.stack)
        return True

    def on_leave(self, original) -> None:
        if isinstance(original, (cst.FunctionDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.GeneratorExp,
                                 cst.DictComp)) and original is not self.inner.node:
            self.stack.pop()


def _first_use(func, name, inners, inner_stmts, seen) -> int | None:
    """The index of the first statement of the body that calls `name`, directly or through
    another inner helper."""
    if name in seen:
        return None
    seen.add(name)
    best = None
    for i, stmt in enumerate(func.body.body):
        uses = _Uses({name})
        run_visitor(stmt, uses)
        if not uses.found:
            continue
        if stmt in inner_stmts:
            caller = next(x for x in inners.values() if x.stmt is stmt)
            i = _first_use(func, caller.name, inners, inner_stmts, seen)
            if i is None:
                continue
        best = i if best is None else min(best, i)
    return best


class _Assigned(cst.CSTVisitor):
    """The name of a `name = lambda` statement anywhere in a tree, for one given lambda."""

    def __init__(self, lam: cst.Lambda):
        self.lam = lam
        self.name: str | None = None

    def visit_SimpleStatementLine(self, node) -> None:
        pair = _lambda_assign(node)
        if pair is not None and pair[1] is self.lam:
            self.name = pair[0]


def refusal(func: cst.FunctionDef, node: cst.CSTNode, positions, source: str | None) -> str:
    """Why a nested def or lambda left in a function was not lifted (the fence's message)."""
    defined = [s for _, s, _, _ in _definitions(func)]
    if isinstance(node, cst.Lambda) and not any(
            (p := _lambda_assign(s)) is not None and p[1] is node for s in defined):
        assigned = _Assigned(node)
        run_visitor(func.body, assigned)
        if assigned.name is not None:
            return f"lambda `{assigned.name}` is defined inside a branch or another nested function"
        return "a lambda used in place (passed, stored or returned) is not translated"
    if isinstance(node, cst.FunctionDef) and node not in defined:
        return f"nested function `{node.name.value}` is defined inside a branch or another nested function"
    try:
        top = symtable.symtable(source, "<np2ref>", "exec") if source is not None else None
    except SyntaxError:
        top = None
    table = _table(top, func.name.value, positions[func.name].start.line) if top else None
    for inner in inner_functions(func, table, positions).values():
        if inner.node is node and inner.why is not None:
            return inner.why
    return "nested functions are not translated here"


# -- the lift ----------------------------------------------------------------------------------

class _Calls(cst.CSTTransformer):
    """`g(args)` -> `lifted_g(captures..., args)` for the lifted helpers of one function."""

    def __init__(self, lifted: dict[str, _Inner]):
        self.lifted = lifted

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if isinstance(original.func, cst.Name) and original.func.value in self.lifted:
            inner = self.lifted[original.func.value]
            caps = [cst.Arg(cst.Name(c)) for c in inner.caps]
            return updated.with_changes(func=cst.Name(inner.lifted), args=[*caps, *updated.args])
        return updated


def _with_captures(params: cst.Parameters, caps) -> cst.Parameters:
    new = [cst.Param(cst.Name(c)) for c in caps]
    if params.posonly_params:
        return params.with_changes(posonly_params=[*new, *params.posonly_params])
    return params.with_changes(params=[*new, *params.params])


def _helper(inner: _Inner, calls: _Calls) -> cst.FunctionDef:
    node = inner.node
    if isinstance(node, cst.Lambda):
        body = node.body.visit(calls)
        return cst.FunctionDef(cst.Name(inner.lifted), _with_captures(node.params, inner.caps),
                               cst.IndentedBlock([cst.SimpleStatementLine([cst.Return(body)])]))
    return node.visit(calls).with_changes(name=cst.Name(inner.lifted), leading_lines=(),
                                          params=_with_captures(node.params, inner.caps))


def _lines(code: str) -> int:
    return code.count("\n")


def _placeholder(inner: _Inner, count: int) -> list[cst.EmptyLine]:
    note = cst.EmptyLine(indent=True, comment=cst.Comment(f"# {inner.name}: lifted to {inner.lifted}"))
    return [*inner.stmt.leading_lines, note, *[cst.EmptyLine(indent=False) for _ in range(count - 1)]]


def _outer(func: cst.FunctionDef, lifted: dict[str, _Inner], module: cst.Module) -> cst.FunctionDef | None:
    """The function without its lifted statements (each left as blank lines) and calling the helpers."""
    drop = {inner.stmt: inner for inner in lifted.values()}

    def without(block: cst.IndentedBlock) -> cst.IndentedBlock | None:
        body, carry = [], []
        for stmt in block.body:
            if stmt in drop:
                inner = drop[stmt]
                carry += _placeholder(inner, _lines(module.code_for_node(stmt.with_changes(leading_lines=()))))
                continue
            if isinstance(stmt, (cst.For, cst.While)) and isinstance(stmt.body, cst.IndentedBlock):
                inside = without(stmt.body)
                if inside is None:
                    return None
                stmt = stmt.with_changes(body=inside)
            if carry:
                stmt = stmt.with_changes(leading_lines=[*carry, *stmt.leading_lines])
                carry = []
            body.append(stmt)
        if not body:
            return None
        return block.with_changes(body=body, footer=[*carry, *block.footer])

    block = without(func.body)
    return None if block is None else func.with_changes(body=block).visit(_Calls(lifted))


def lift(text: str, module: cst.Module) -> Lifted | None:
    """The text with every liftable nested function of every module function lifted; None when
    there is none."""
    if not contains(module, (cst.Lambda,)) and not any(
            isinstance(s, cst.FunctionDef) and contains(s.body, (cst.FunctionDef,)) for s in module.body):
        return None
    try:
        top = symtable.symtable(text, "<np2ref>", "exec")
    except SyntaxError:
        return None
    positions = module_positions(module)
    taken = _bound(module)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    out, where, names = [], [(0, 0)], {}
    done = 0  # original lines copied so far
    for func in module.body:
        if not isinstance(func, cst.FunctionDef):
            continue
        table = _table(top, func.name.value, positions[func.name].start.line)
        inners = inner_functions(func, table, positions) if table is not None else {}
        lifted = {n: i for n, i in inners.items() if i.why is None}
        if not lifted:
            continue
        for inner in lifted.values():
            inner.lifted = _fresh(f"{func.name.value}__{inner.name}", taken)
        new = _outer(func, lifted, module)
        old_code = module.code_for_node(func.with_changes(leading_lines=()))
        new_code = module.code_for_node(new.with_changes(leading_lines=())) if new is not None else None
        if new is None or _lines(new_code) != _lines(old_code):  # (each text made once: libcst's codegen is slow)
            continue
        start = positions[func.name].start.line - (
            _lines(old_code) - _lines(module.code_for_node(func.with_changes(leading_lines=(), decorators=()))))
        for n in range(done, start - 1):
            out.append(lines[n])
            where.append((n + 1, 0))
        calls = _Calls(lifted)
        for inner in sorted(lifted.values(), key=lambda x: x.index):
            code = module.code_for_node(_helper(inner, calls)).splitlines(keepends=True)
            indent = positions[inner.node].start.column if isinstance(inner.node, cst.FunctionDef) else 0
            for k, line in enumerate(code):
                origin = inner.line + k if isinstance(inner.node, cst.FunctionDef) else inner.line
                out.append(line)
                where.append((origin, -indent))
            out += ["\n", "\n"]
            where += [(start, 0), (start, 0)]
            names[inner.lifted] = (func.name.value, inner.name)
        for k, line in enumerate(new_code.splitlines(keepends=True)):
            out.append(line)
            where.append((start + k, 0))
        done = start - 1 + _lines(old_code)
    if not names:
        return None
    for n in range(done, len(lines)):
        out.append(lines[n])
        where.append((n + 1, 0))
    return Lifted("".join(out), where, names)


def _fresh(name: str, taken: set[str]) -> str:
    base, k = name, 2
    while name in taken:
        name, k = f"{base}_{k}", k + 1
    taken.add(name)
    return name
