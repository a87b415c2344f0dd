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
- it is `a = b` with two names, in a block inside a `for` or `while` body (or in a block that
  block holds: `if not _skip_2: centers = new`, as frontend/jumps.py guards the statements after a
  `break` on data; the statement holding it then stands for it below);
- every binding of `b` in the function (but `b op= v`) is a statement of that block before it,
  each a fresh allocation (a NumPy creation function, `np.array` without `copy=`, `.copy()`, an operator);
- every write that reaches `b`'s storage is inside that block, between `b`'s first binding and
  `a = b`; no write names `a` itself;
- no name but `a` and `b` shares that storage.
"""

from __future__ import annotations

import libcst as cst

from . import effects as fx
from .nodes import contains, nodes_of, walk, run_visitor

_FRESH_NUMPY = frozenset({
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "copy", "array",
})


def snapshot_binds(func: cst.FunctionDef, bindings, writes, roots, roots_of, imports, local_names) -> frozenset:
    """The value Names `b` of the qualifying `a = b` bindings (left out of the storage roots)."""
    found = set()
    blocks = _loop_blocks(func)
    for block in blocks:
        for j, stmt in enumerate(block.body):
            pair = _name_binding(stmt)
            if not pair:
                continue
            # the block itself, or one that holds it (`if not _skip_2: centers = new` after a
            # `break` on data, frontend/jumps.py), as the statement at index k of that block
            for outer, k in [(block, j), *_holders(block, blocks)]:
                if _qualifies(pair, outer, k, bindings, writes, roots, roots_of, imports, local_names):
                    found.add(pair[1])
                    break
    return frozenset(found)


_LINES = (cst.SimpleStatementLine, cst.SimpleStatementSuite)


def return_binds(func: cst.FunctionDef, bindings, roots) -> frozenset:
    """The value Names of frontend/loop_returns.py's `_value_2 = x` (`return x` in a loop, as
    `_value_2 = x; _returned_1 = True; break`: the break follows it, and only `return _value_2`
    after the loop reads the name) and of returns.py's `_return_3 = x` (the one exit of returns
    under `if`s: its last binding on each path, only `return _return_3` follows): exact as a
    load, since nothing writes x in between. Not one holding a parameter's array (NumPy returns
    the caller's object itself), nor in a function with a `finally:` (which runs on the `break`
    and might write x)."""
    if any(n.finalbody is not None for n in nodes_of(func, cst.Try)):
        return frozenset()
    stored = set()  # the values stored just before `_returned_1 = True`
    for line in nodes_of(func, _LINES):
        for small, after in zip(line.body, line.body[1:]):
            if _sets_flag(after, "_returned_") and isinstance(small, cst.Assign) and len(small.targets) == 1:
                stored |= {id(v) for v in _stored_values(small.targets[0].target, small.value)}
    return frozenset(v for t, v in bindings if isinstance(v, cst.Name)
                     and (id(v) in stored or _generated(t.value, "_return_"))
                     and not any(r.startswith("param ") for r in roots.get(v.value, ())))


def _generated(name: str, stem: str) -> bool:
    return name.startswith(stem) and name[len(stem):].isdigit()


def _sets_flag(small, stem: str) -> bool:
    """`_returned_1 = True`."""
    return isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
        and _generated(small.targets[0].target.value, stem) and isinstance(small.value, cst.Name) \
        and small.value.value == "True"


def _stored_values(target, value) -> list:
    """The values `_value_2 = v` or `(_value_3, _value_4) = a, b` stores in loop_returns' names."""
    if isinstance(target, cst.Name):
        return [value] if _generated(target.value, "_value_") else []
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements):
        return [v.value for t, v in zip(target.elements, value.elements)
                if isinstance(t.value, cst.Name) and _generated(t.value.value, "_value_")]
    return []


def _holders(block, blocks):
    """(outer, k) for each loop block that holds `block` in its statement k."""
    out = []
    for outer in blocks:
        if outer is not block:
            k = _positions(outer).get(id(block))
            if k is not None:
                out.append((outer, k))
    return out


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
    if not contains(func, (cst.For, cst.While)):
        return []  # (no loop: the visitors below, classes made per call, find nothing; issue 43)
    out: list[cst.IndentedBlock] = []

    class V(cst.CSTVisitor):
        depth = 0

        def visit_FunctionDef(self, node) -> bool:
            return node is func

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_For(self, node) -> None:
            run_visitor(node.body, Blocks())

        def visit_While(self, node) -> None:
            run_visitor(node.body, Blocks())

    class Blocks(cst.CSTVisitor):
        def visit_IndentedBlock(self, node) -> None:
            out.append(node)

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_Lambda(self, node) -> bool:
            return False

    run_visitor(func, V())
    return list({id(b): b for b in out}.values())


# -- windows: `region = padded[i:i + kh, j:j + kw]`, read only within the iteration ----------------

_VIEW_CALLS = frozenset(fx.VIEW_FUNCTIONS) | frozenset(fx.OPAQUE_VIEW_FUNCTIONS)
_READING_METHODS = frozenset({"sum", "mean", "max", "min", "std", "var", "prod", "any", "all", "copy",
                              "argmax", "argmin", "ptp"})


def window_binds(func: cst.FunctionDef, bindings, writes, roots_of, imports, local_names, loop_names) -> frozenset:
    """The values of the bindings `w = x[i:i + k, ...]` (a slice whose bound names a loop
    variable: a window that moves) that may be read as loaded copies, left out of the storage
    roots. NumPy's `w` is a view of x; the copy holds the same values as long as nothing writes
    x's storage while `w` is read, and nothing writes or re-views through `w`. Strictly
    conservative: the binding is a statement of a `for` body, the only binding of `w`; every use
    of `w` is inside that loop, as an operand of arithmetic or a comparison, an argument of a
    NumPy function that makes no view and takes no `out=`, the object of a reading method
    (`w.sum()`, `w.max()`) or of `.shape`/`.size`/`.ndim`/`.dtype`; no write inside the loop
    reaches x's storage. (A window of a Ref read as a view was a Python loop, NPR033: the
    textbook `region = padded[i:i + kh, j:j + kw]` convolution traced one body per pixel.)"""
    found = set()
    count: dict[str, int] = {}
    for t, _ in bindings:
        count[t.value] = count.get(t.value, 0) + 1
    for loop in _for_loops(func):
        parents = None  # (made for the loop's first window binding: most loops have none)
        for stmt in loop.body.body:
            pair = _window_binding(stmt, loop_names)
            if pair is None or count.get(pair[0].value) != 1:
                continue
            target, value = pair
            storage = roots_of(value.value)
            parents = _parents(loop) if parents is None and storage else parents
            if not storage or not _uses_read_only(func, loop, target, parents, imports, local_names):
                continue
            inside = {id(n) for n in walk(loop)}
            if any(id(w.node) in inside and roots_of(w.target) & storage for w in writes):
                continue
            found.add(value)
    return frozenset(found)


def _window_binding(stmt, loop_names):
    """(w, x[...]) for a statement `w = x[...]` with a slice bound naming a loop variable."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
        return None
    node = stmt.body[0]
    if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
        return None
    value = node.value
    if not isinstance(value, cst.Subscript) or not isinstance(value.value, cst.Name):
        return None
    moving = any(isinstance(e.slice, cst.Slice) and any(
        b is not None and any(isinstance(n, cst.Name) and n.value in loop_names for n in walk(b))
        for b in (e.slice.lower, e.slice.upper)) for e in value.slice)
    return (node.targets[0].target, value) if moving else None


def _uses_read_only(func, loop, target: cst.Name, parents, imports, local_names) -> bool:
    """Whether every use of `target` but its binding is inside `loop` and only reads it (see
    window_binds)."""
    inside = {id(n) for n in walk(loop)}
    for node in walk(func):
        if not (isinstance(node, cst.Name) and node.value == target.value) or node is target:
            continue
        if id(node) not in inside or _in_nested_function(node, loop, parents):
            return False
        parent = parents.get(id(node))
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
            continue
        if isinstance(parent, cst.ComparisonTarget) or isinstance(parent, cst.Comparison) and parent.left is node:
            continue
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value in ("shape", "size", "ndim", "dtype"):
                continue
            call = parents.get(id(parent))
            if parent.attr.value in _READING_METHODS and isinstance(call, cst.Call) and call.func is parent:
                continue
            return False
        if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
            call = parents.get(id(parent))
            qual = imports.qualify_numpy(call.func, local_names) if isinstance(call, cst.Call) else None
            if qual is not None and qual not in _VIEW_CALLS and not fx.view_call(qual, call) and not any(
                    a.keyword is not None and a.keyword.value == "out" for a in call.args):
                continue
        return False
    return True


def _in_nested_function(node, top, parents) -> bool:
    """Whether a lambda or def between `node` and `top` holds it (it may run after the loop)."""
    while node is not None and node is not top:
        if isinstance(node, (cst.Lambda, cst.FunctionDef)):
            return True
        node = parents.get(id(node))
    return False


def _for_loops(func: cst.FunctionDef) -> list:
    out = []

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is func

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_For(self, node) -> None:
            out.append(node)

    run_visitor(func, V())
    return out


def _parents(node) -> dict[int, cst.CSTNode]:
    out: dict[int, cst.CSTNode] = {}
    for n in walk(node):
        for c in n.children:
            out[id(c)] = n
    return out
