"""A `return` inside a loop as a `break`, before jumps.py and returns.py lower both.

    def search(a, t):                           def search(a, t):
        lo, hi = 0, len(a) - 1                      lo, hi = 0, len(a) - 1
        while lo <= hi:                             _returned_1 = False
            mid = (lo + hi) // 2                    while lo <= hi:
            if a[mid] == t:                 ->          mid = (lo + hi) // 2
                return mid                              if a[mid] == t:
            ...                                             _value_2 = mid; _returned_1 = True; break
        return -1                                       ...
                                                    if _returned_1:
                                                        return _value_2
                                                    return -1

Each `return v` in the loop's own body (not in a nested loop or function) stores v, sets the
flag and breaks; the statements after the loop run only when no `return` did. A `while True:`
without a `break` of its own ends only through its returns: `return _value_n` follows it. Bare
`return`s (or `return None`), in a function that returns nothing after the loop, set the flag only, and the
statements after the loop run under `if not _returned_n:` (no value meets None in lax.cond).
frontend/jumps.py then lowers the `break` to flags and frontend/returns.py the `if` to one exit,
so a loop on array data becomes a lax loop that stops at the return.

Exact: the same statements run in the same order and the function returns the same object (v
is evaluated where the `return` was; `finally:` and `with` exits run on the `break` as on the
`return`). A loop's `else:` runs when no `break` ended it: in a loop without a `break` of its
own, when no `return` did, so its statements follow `if _returned_1: return _value_2` (one with
a `break` of its own is left as written). Only loops that are statements of the function body
itself and whose returns are all in their own body are rewritten (a `for` loop only when a return is under
a test that may read array data: one on loop indices stays Python's loop, its tests concrete);
any other stays as written.
"""

from __future__ import annotations

import libcst as cst
from ..analysis.nodes import contains, run_visitor

_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


class _Found(cst.CSTVisitor):
    """The returns in a loop body: its own (`own`) and those of nested loops (`nested`)."""

    def __init__(self):
        self.own = self.nested = self.breaks = self.valued = self.on_data = 0
        self.depth = 0
        self.tests: list = []  # the tests of the `if`s around the node

    def on_visit(self, node) -> bool:
        if isinstance(node, _SCOPES):
            return False
        if isinstance(node, (cst.For, cst.While)):
            self.depth += 1
        elif isinstance(node, cst.If):
            self.tests.append(node.test)
        elif isinstance(node, cst.Return):
            if self.depth:
                self.nested += 1
            else:
                self.own += 1
                self.valued += node.value is not None and not (  # `return None` is a bare return
                    isinstance(node.value, cst.Name) and node.value.value == "None")
                self.on_data += any(_reads_data(t) for t in self.tests)
        elif isinstance(node, cst.Break) and not self.depth:
            self.breaks += 1
        return True

    def on_leave(self, node) -> None:
        if isinstance(node, (cst.For, cst.While)):
            self.depth -= 1
        elif isinstance(node, cst.If):
            self.tests.pop()


def _reads_data(test) -> bool:
    """A test with a subscript or a call in it (`a[i] < 0`, `abs(fx) < tol`): one that may read
    array data. A `for` loop whose returns are all under tests of loop indices and Python ints
    (`if k == 2: return 1.5`) stays the Python loop it was, its tests concrete."""
    found = []

    class V(cst.CSTVisitor):
        def on_visit(self, node) -> bool:
            if isinstance(node, (cst.Subscript, cst.Call)):
                found.append(node)
            return not found
    run_visitor(test, V())
    return bool(found)


def _found(loop) -> _Found:
    f = _Found()
    run_visitor(loop.body, f)
    return f


def _rewritable(stmt) -> bool:
    if not isinstance(stmt, (cst.For, cst.While)) or not contains(stmt.body, cst.Return):
        return False  # (a loop with no `return` at all has none of its own: most loops, at a walk's cost)
    f = _found(stmt)
    # an `else:` runs when no `break` ended the loop: with no `break` of its own, when no return did
    return f.own > 0 and f.nested == 0 and (isinstance(stmt, cst.While) or f.on_data > 0) \
        and (stmt.orelse is None or f.breaks == 0)


def _else_statements(loop) -> list:
    """The statements of a loop's `else:` (none without one)."""
    if loop.orelse is None:
        return []
    body = loop.orelse.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else [cst.SimpleStatementLine(list(body.body))]


def loop_returns(func: cst.FunctionDef) -> bool:
    """Whether a statement of `func`'s body is a loop whose returns this module rewrites."""
    return isinstance(func.body, cst.IndentedBlock) and any(_rewritable(s) for s in func.body.body)


class _Values(cst.CSTVisitor):
    """The values of a loop body's own returns."""

    def __init__(self):
        self.values: list = []
        self.depth = 0

    def on_visit(self, node) -> bool:
        if isinstance(node, _SCOPES):
            return False
        if isinstance(node, (cst.For, cst.While)):
            self.depth += 1
        elif isinstance(node, cst.Return) and not self.depth:
            self.values.append(node.value)
        return True

    def on_leave(self, node) -> None:
        if isinstance(node, (cst.For, cst.While)):
            self.depth -= 1


def _width(loop) -> int:
    """n when every return of the loop's own body is a tuple display of n items (`return i, j`):
    each item gets a name of its own (a loop carries numbers and arrays, not tuples); else 0."""
    v = _Values()
    run_visitor(loop.body, v)
    widths = {len(x.elements) if isinstance(x, cst.Tuple) and x.elements
              and not any(isinstance(e, cst.StarredElement) for e in x.elements) else 0 for x in v.values}
    return widths.pop() if len(widths) == 1 else 0


class _ToBreak(cst.CSTTransformer):
    """`return v` in a loop's own body -> `value = v; flag = True; break` (`value_1, value_2 =
    a, b` for `return a, b` where `items` names each item)."""

    def __init__(self, flag: str, value: str | None, anchor, items=()):
        self.flag, self.value, self.anchor, self.items = flag, value, anchor, items

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def visit_For(self, node) -> bool:
        return False

    def visit_While(self, node) -> bool:
        return False

    def _small(self, original, updated) -> list | None:
        """The small statements of a line with its `return` as the break (the transformer's
        updated nodes are copies: new nodes stand for the original `return`)."""
        for k, s in enumerate(updated):
            if isinstance(s, cst.Return):
                value = s.value if s.value is not None else cst.Name("None")
                store = []
                if self.value is not None:
                    target = cst.Tuple([cst.Element(cst.Name(n)) for n in self.items]) if self.items \
                        else cst.Name(self.value)
                    store = [cst.Assign([cst.AssignTarget(target)], value)]
                new = [*(x.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for x in updated[:k]), *store,
                       cst.Assign([cst.AssignTarget(cst.Name(self.flag))], cst.Name("True")),
                       cst.Break()]
                for n in new:
                    self.anchor(n, original[k])
                return new
        return None

    def leave_SimpleStatementLine(self, original, updated):
        small = self._small(list(original.body), list(updated.body))
        if small is None:
            return updated
        new = updated.with_changes(body=small)
        self.anchor(new, original)
        return new

    def leave_SimpleStatementSuite(self, original, updated):
        small = self._small(list(original.body), list(updated.body))
        if small is None:
            return updated
        new = cst.IndentedBlock(body=[cst.SimpleStatementLine(body=small)])
        self.anchor(new, original)
        return new


def _line(*small) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine(list(small))


def _has_return(stmt) -> bool:
    found = []

    class V(cst.CSTVisitor):
        def on_visit(self, node) -> bool:
            if isinstance(node, cst.Return):
                found.append(node)
            return not isinstance(node, _SCOPES)
    run_visitor(stmt, V())
    return bool(found)


def _bare(loop, rest: list, flag: str, anchor) -> list:
    """`for ...: ... return` (no value) then statements that return nothing: `flag = True;
    break` for each `return`, and the statements after the loop under `if not flag:`."""
    start = _line(cst.Assign([cst.AssignTarget(cst.Name(flag))], cst.Name("False")))
    start = start.with_changes(leading_lines=loop.leading_lines)
    new = loop.with_changes(body=loop.body.visit(_ToBreak(flag, None, anchor)), leading_lines=[])
    out = [start, new]
    if rest:
        out.append(cst.If(cst.UnaryOperation(cst.Not(), cst.Name(flag)), cst.IndentedBlock(body=rest)))
    for n in out:
        anchor(n, loop)
    return out


def returns_to_breaks(func: cst.FunctionDef, fresh, anchor) -> cst.FunctionDef:
    """`func` with the returns of its body's loops rewritten (see the module docstring).
    fresh(stem): a new name; anchor(new, original): the user's node a new node stands for."""
    out: list = []
    stmts = list(func.body.body)
    for k, stmt in enumerate(stmts):
        if not _rewritable(stmt):
            out.append(stmt)
            continue
        # `for ... else: E` without a `break` of its own: E runs when no return did, so it
        # follows the loop as the statements after it do
        orelse = _else_statements(stmt)
        if orelse:
            bare = stmt.with_changes(orelse=None)
            anchor(bare, stmt)
            stmt = bare
        rest = orelse + stmts[k + 1:]
        if _found(stmt).valued == 0 and not any(_has_return(r) for r in rest):
            # bare returns, and the function ends without one: the rest runs when none did
            out += _bare(stmt, rest, fresh("returned"), anchor)
            break
        flag, value = fresh("returned"), fresh("value")
        items = tuple(fresh("value") for _ in range(_width(stmt)))
        result = cst.Tuple([cst.Element(cst.Name(n)) for n in items]) if items else cst.Name(value)
        start = _line(cst.Assign([cst.AssignTarget(cst.Name(flag))], cst.Name("False")))
        start = start.with_changes(leading_lines=stmt.leading_lines)
        loop = stmt.with_changes(body=stmt.body.visit(_ToBreak(flag, value, anchor, items)), leading_lines=[])
        forever = isinstance(stmt, cst.While) and isinstance(stmt.test, cst.Name) and stmt.test.value == "True" \
            and _found(stmt).breaks == 0
        if forever:  # it ends only through a return: what follows it never runs
            after = [_line(cst.Return(result))]
        else:
            after = [cst.If(cst.Name(flag), cst.IndentedBlock([_line(cst.Return(result))]))]
        for n in (start, loop, *after):
            anchor(n, stmt)
        out += [start, loop, *after]
        if forever:  # (a `while True:` never runs its `else:`)
            break
        out += orelse
    new = func.with_changes(body=func.body.with_changes(body=out))
    anchor(new, func)
    return new
