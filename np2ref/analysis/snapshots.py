"""Snapshot bindings: `u = unew` at the end of an iteration that made `unew` afresh.

    for it in range(iters):             while err > tol:
        unew = u.copy()                     new = np.zeros_like(centers)
        unew[1:-1] = 0.5 * (...)            new[:, 0] = ...
        u = unew                            centers = new

NumPy binds `u` to the buffer `unew` holds. When that buffer is written only before the binding
(every write that reaches it sits in the same block, between the statement that allocated it and
`u = unew`), nothing writes it afterwards: the next iteration allocates a new one before writing,
and no other name sees it. `u` then holds the values the buffer has at the binding, for good, so
the binding is exact as a load (`u = unew[...]`) and `u` is a plain value the loop carries, not
a Ref rebound per iteration (which was a Python loop, NPR033, or refused: NPR011 in a `while`,
NPR030 with a `break` on data).

Strictly conservative; a binding qualifies only when
- it is `a = b` with two names, in a block inside a `for` or `while` body;
- every binding of `b` in the function (but `b op= v`) is a statement of that block before it,
  each a fresh allocation (a NumPy creation function, `np.array` without `copy=`, `.copy()`, an operator);
- every write that reaches `b`'s storage is inside that block, between `b`'s first binding and
  `a = b`; no write names `a` itself;
- no name but `a` and `b` shares that storage.
"""

from __future__ import annotations

import libcst as cst

_FRESH_NUMPY = frozenset({
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "copy", "array",
})


def snapshot_binds(func: cst.FunctionDef, bindings, writes, roots, roots_of, imports, local_names) -> frozenset:
    """The value Names `b` of the qualifying `a = b` bindings (left out of the storage roots)."""
    found = set()
    for block in _loop_blocks(func):
        for j, stmt in enumerate(block.body):
            pair = _name_binding(stmt)
            if pair and _qualifies(pair, block, j, bindings, writes, roots, roots_of, imports, local_names):
                found.add(pair[1])
    return frozenset(found)


def _name_binding(stmt):
    """(a, b) Name nodes for the statement `a = b`, else None."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    node = stmt.body[0]
    if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) \
            and isinstance(node.value, cst.Name) and node.targets[0].target.value != node.value.value:
        return node.targets[0].target, node.value
    return None


def _name_binding_target(stmt):
    """The Name a statement `name = value` binds, else None."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) \
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name):
        return stmt.body[0].targets[0].target
    return None


def _qualifies(pair, block, j, bindings, writes, roots, roots_of, imports, local_names) -> bool:
    a, b = pair[0].value, pair[1].value
    storage = roots.get(b, frozenset())
    if not storage or not all(r.startswith("alloc ") for r in storage):
        return False
    if any(n not in (a, b) and rs & storage for n, rs in roots.items()):
        return False
    where = _positions(block)
    # `b op= v` (a binding with no value) writes b's buffer in place: checked with the writes
    own = [(where.get(id(t)), t, v) for t, v in bindings if t.value == b and v is not None]
    if not own or any(i is None or i >= j or _name_binding_target(block.body[i]) is not t or not _fresh(v, imports, local_names)
                      for i, t, v in own):
        return False
    first = min(i for i, _, _ in own)
    for w in writes:
        if isinstance(w.target, cst.Name) and w.target.value == a:
            return False
        if roots_of(w.target) & storage:
            i = where.get(id(w.node))
            if i is None or not first < i < j:
                return False
    return True


def _fresh(value, imports, local_names) -> bool:
    """Whether an expression makes a new array each time it runs."""
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)):
        return True
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value == "copy" and not value.args:
        return True
    qual = imports.qualify_numpy(func, local_names)
    if qual is None or qual.split(".")[-1] not in _FRESH_NUMPY or qual.count(".") != 1:
        return False
    return not any(a.keyword is not None and a.keyword.value == "copy" for a in value.args)


def _positions(block: cst.IndentedBlock) -> dict[int, int]:
    """id of every node in the block -> the index of the statement of the block it is in."""
    where: dict[int, int] = {}
    for i, stmt in enumerate(block.body):
        stack = [stmt]
        while stack:
            node = stack.pop()
            where[id(node)] = i
            stack.extend(node.children)
    return where


def _loop_blocks(func: cst.FunctionDef):
    """Every indented block inside a `for` or `while` body of func (not of nested functions)."""
    out: list[cst.IndentedBlock] = []

    class V(cst.CSTVisitor):
        depth = 0

        def visit_FunctionDef(self, node) -> bool:
            return node is func

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_For(self, node) -> None:
            node.body.visit(Blocks())

        def visit_While(self, node) -> None:
            node.body.visit(Blocks())

    class Blocks(cst.CSTVisitor):
        def visit_IndentedBlock(self, node) -> None:
            out.append(node)

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_Lambda(self, node) -> bool:
            return False

    func.visit(V())
    return list({id(b): b for b in out}.values())
