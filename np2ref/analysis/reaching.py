"""The one binding of a name that reaches a write, where the code shows it plainly.

    x, v = state            the storage roots of `x` (flow-insensitive: analysis/aliases.py)
    x = x.copy()            hold `param state` and the copy; the write `x += v` reaches only
    x += v                  the copy, so nothing of `state` is written.

`reaching_value(func, node, name, targets)` walks back from the statement holding `node` through
its block and the blocks around it, and returns the value of the statement `name = value` it
meets first, when that statement is the only binding of `name` that can reach `node`:
- statements between bind `name` nowhere (an `op=` on it writes in place, no binding);
- a compound statement in between that binds it (an `if` that may rebind it) gives up;
- climbing out of a loop, or a `try`/`with`/`match`, that binds the name anywhere gives up
  (a later iteration, or a handler, may reach the write with another binding); an `if` or
  `else` is climbed freely (the write's own branch was searched, the other does not run).
None where no such binding is found: the caller keeps the flow-insensitive roots.
"""

from __future__ import annotations

import dataclasses

import libcst as cst
from .nodes import run_visitor, toured_parents

_BLOCKS = (cst.IndentedBlock, cst.SimpleStatementSuite)
_OPEN = (cst.If, cst.Else)  # climbed without a check: the other branch does not reach the write
_OTHER_BINDERS = (cst.AsName, cst.NamedExpr, cst.Global, cst.Nonlocal, cst.Del, cst.FunctionDef, cst.ClassDef)
_BINDER_TYPES = frozenset(_OTHER_BINDERS)


class _Parents(cst.CSTVisitor):
    layout_blind = True  # (analysis/nodes.run_visitor: on_visit/on_leave ignore whitespace and commas)
    def __init__(self):
        self.parent: dict[cst.CSTNode, cst.CSTNode] = {}
        self.stack: list[cst.CSTNode] = []
        self.binders: dict[str, list[cst.CSTNode]] = {}  # name -> the `as`/`:=`/global/del/def binding it

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.stack:
            self.parent[node] = self.stack[-1]
        self.stack.append(node)
        _note_binder(self.binders, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()


@dataclasses.dataclass(frozen=True)
class Tree:
    """One walk of a function, read by every reaching_value() in it: each node's parent, and the
    nodes binding a name other than by assignment (`as`, `:=`, global, del, a nested def)."""
    parent: dict
    binders: dict


def parents(func: cst.FunctionDef) -> Tree:
    toured = toured_parents(func)
    if toured is None:
        visitor = _Parents()
        run_visitor(func, visitor)
        return Tree(visitor.parent, visitor.binders)
    found, parent = toured  # (the module's tour: what _Parents would see, in its order)
    binders: dict[str, list[cst.CSTNode]] = {}
    for node in found:
        _note_binder(binders, node)
    return Tree(parent, binders)


def _note_binder(binders: dict, node: cst.CSTNode) -> None:
    """Note `node` under each name it binds, if it binds by `as`, `:=`, global, del or a def."""
    if type(node) in _BINDER_TYPES:  # (libcst's node types have no subclasses; an ABC's isinstance is slow)
        for m in _names(node):
            if isinstance(m, cst.Name):
                binders.setdefault(m.value, []).append(node)


def _binds(tree: Tree, node: cst.CSTNode, name: str, targets: frozenset) -> bool:
    """Whether `node` holds a binding of `name`: a binding target in `targets`, or a name bound
    by `as`, `:=`, `global`, `del`, a nested def. (Climbs from each binding to see whether `node`
    is above it: a function holds few bindings of a name, and walking `node`'s statements for each
    question was most of the alias analysis's time, issue 43.)"""
    parent = tree.parent
    for binder in (*targets, *tree.binders.get(name, ())):
        cur = binder
        while cur is not node:
            cur = parent.get(cur)
            if cur is None:
                break
        else:
            return True
    return False


def _names(node: cst.CSTNode):
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return [node.name]
    if isinstance(node, (cst.Global, cst.Nonlocal)):
        return [n.name for n in node.names]
    if isinstance(node, cst.Del):
        return [node.target]
    return [node.name if isinstance(node, cst.AsName) else node.target]


def _plain_binding(stmt: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """The value of `name = value` (one target, a bare name), else None."""
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0].target, cst.Name) and stmt.targets[0].target.value == name:
        return stmt.value
    return None


def reaching_value(tree: Tree, node: cst.CSTNode, name: str, targets: frozenset) -> cst.BaseExpression | None:
    """The value of the only binding `name = value` that reaches `node` (see the module
    docstring), or None. `targets`: the Name nodes that bind `name` (aug targets left out)."""
    parent = tree.parent
    cur = node
    while cur in parent:
        up = parent[cur]
        body = getattr(up, "body", None)
        if isinstance(up, (cst.SimpleStatementLine, *_BLOCKS)) and isinstance(body, (list, tuple)):
            for stmt in reversed(body[:[id(s) for s in body].index(id(cur))]):
                if _binds(tree, stmt, name, targets):
                    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
                        stmt = stmt.body[0]
                    return _plain_binding(stmt, name)
        elif isinstance(up, cst.FunctionDef):
            return None
        elif not isinstance(up, _OPEN) and _binds(tree, up, name, targets):
            return None  # a loop (or try, with) that binds the name elsewhere in it
        elif isinstance(up, cst.If) and _binds(tree, up.test, name, targets):
            return None
        cur = up
    return None
