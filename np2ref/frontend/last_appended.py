"""`hist[-1]` read right after `hist.append(v)` in a loop body, as the value appended.

What: in a loop body,
    hist.append(float(u.sum()))
    print(step, hist[-1])
becomes
    hist_last = float(u.sum())
    hist.append(hist_last)
    print(step, hist_last)
Why: a loop that appends one value a trip is a lax loop stacking the values (rules/loop_appends.py),
but a read of the list inside the body needs the list as Python builds it, so the loop ran as a
Python loop traced once per trip (NPR033): the commonest history-and-print pattern of scripts.
Exact: `hist[-1]` after the append is the object appended, the same object the name holds; the
value is evaluated once, before the append, as it was. Only statements after the append in the
same block whose every use of `hist` is a `hist[-1]` read are rewritten: the first that uses it
otherwise (another append, `len(hist)`, a store `hist[-1] = v`, a rebinding) ends the run. The new
nodes map to the user's (`origin`), so diagnostics keep the user's positions.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.nodes import nodes_of
from .outs import Normalizer


def normalize_module(module: cst.Module) -> tuple[cst.Module, dict]:
    """(module, origin): the module with `L[-1]` after `L.append(v)` in loop bodies read from a
    name bound to v (the same module object when there is none)."""
    loops = nodes_of(module, (cst.For, cst.While))
    if not any(_runs(loop.body.body) for loop in loops if isinstance(loop.body, cst.IndentedBlock)):
        return module, {}
    taken = {n.value for n in nodes_of(module, cst.Name)}
    fix = _LastAppended(taken)
    new = module.visit(fix)
    return (new, fix.origin) if fix.changed else (module, {})


def _appended(stmt) -> str | None:
    """`L` of a statement `L.append(v)` (one positional argument), else None."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Expr):
        return None
    call = stmt.body[0].value
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
            and isinstance(call.func.value, cst.Name) and len(call.args) == 1 \
            and call.args[0].keyword is None and not call.args[0].star:
        return call.func.value.value
    return None


def _last_reads(stmt, name: str) -> list[cst.Subscript] | None:
    """The `name[-1]` reads of a statement when every use of `name` in it is one; None when it
    uses `name` otherwise (a store `name[-1] = v` or `name[-1] += v` included)."""
    reads, uses = [], 0
    for node in nodes_of(stmt, (cst.Subscript, cst.Name)):
        if isinstance(node, cst.Name) and node.value == name:
            uses += 1
        elif isinstance(node, cst.Subscript) and _is_last(node, name):
            reads.append(node)
    stored = {id(t.target) for t in nodes_of(stmt, (cst.AssignTarget, cst.AugAssign))} \
        | {id(t.target) for t in nodes_of(stmt, cst.AnnAssign)} | {id(t.target) for t in nodes_of(stmt, cst.For)}
    if uses != len(reads) or any(id(r) in stored for r in reads) or nodes_of(stmt, cst.Del):
        return None
    return reads


def _is_last(node: cst.Subscript, name: str) -> bool:
    if not (isinstance(node.value, cst.Name) and node.value.value == name and len(node.slice) == 1):
        return False
    s = node.slice[0].slice
    return isinstance(s, cst.Index) and isinstance(s.value, cst.UnaryOperation) \
        and isinstance(s.value.operator, cst.Minus) and isinstance(s.value.expression, cst.Integer) \
        and s.value.expression.value == "1"


def _runs(body) -> list[tuple[int, str, list]]:
    """(index of the append, L, the `L[-1]` reads after it) for each append in a block followed by
    statements that read L only as `L[-1]`, at least one of them."""
    found = []
    for i, stmt in enumerate(body):
        name = _appended(stmt)
        if name is None:
            continue
        reads = []
        for later in body[i + 1:]:
            more = _last_reads(later, name)
            if more is None:
                break
            reads += more
        if reads:
            found.append((i, name, reads))
    return found


class _LastAppended(Normalizer):

    def __init__(self, taken: set[str]):
        super().__init__(imports=None)
        self.taken = taken
        self.replace: dict[cst.Subscript, str] = {}  # an `L[-1]` read -> the name it becomes
        self.binds: dict[cst.SimpleStatementLine, str] = {}  # an append -> the name bound before it

    def visit_For(self, node: cst.For) -> None:
        self._loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._loop(node)

    def _loop(self, node) -> None:
        if not isinstance(node.body, cst.IndentedBlock):
            return
        for i, name, reads in _runs(node.body.body):
            fresh = self._fresh(f"{name}_last")
            self.binds[node.body.body[i]] = fresh
            self.replace.update({r: fresh for r in reads})

    def _fresh(self, base: str) -> str:
        name, k = base, 1
        while name in self.taken:
            name, k = f"{base}{k}", k + 1
        self.taken.add(name)
        return name

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript):
        if original in self.replace:
            self.changed = True
            return cst.Name(self.replace[original])
        return updated

    def leave_SimpleStatementLine(self, original, updated):
        if original not in self.binds:
            return updated
        fresh = self.binds[original]
        call = updated.body[0].value
        value = call.args[0].value
        bind = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(fresh))], value)],
                                       leading_lines=updated.leading_lines)
        append = updated.with_changes(leading_lines=[], body=[updated.body[0].with_changes(
            value=call.with_changes(args=[call.args[0].with_changes(value=cst.Name(fresh))]))])
        for node in (bind, *nodes_of(bind, cst.CSTNode), append, *nodes_of(append, cst.CSTNode)):
            self.origin.setdefault(node, original)
        self.changed = True
        return cst.FlattenSentinel([bind, append])
