"""Rotations of written arrays in a loop: `a, b = b, a` (or `a, b, c = b, c, a`) each trip.

What: the assignments that permute the buffers of written arrays, found per loop (rotation_finder);
rules/loops.py emits them through npr_rotate / npr_rotated, the buffers' contents permuted in place. Why: a double
buffer (`u, unew = unew, u`) is every stencil's time loop. Exact: only where nothing else sees
those buffers (no other name sharing their storage), so permuting contents is what rebinding names
does in NumPy.
"""

from __future__ import annotations

import libcst as cst

from .control import uses
from ...analysis.nodes import run_visitor


def rotation_finder(facts):
    """is_rotation(body, name, counted): the assignments that permute written arrays including
    `name` (`a, b = b, a`), if every binding of `name` in the body is one, as (assignments,
    seen_elsewhere); else None. Nothing else may see those buffers (no parameter, no other name
    sharing their storage roots) — unless `counted` (a `range` loop, whose trip count npr_rotated
    reads after the loop), the permutation is one statement at the top of the body, and no name
    that sees those buffers is used in the loop: then seen_elsewhere is True."""

    def is_rotation(body: cst.IndentedBlock, name: str, counted: bool = False):
        found: list[cst.Assign] = []
        ok, itself = [True], []

        def binds(target) -> bool:
            return isinstance(target, cst.Name) and target.value == name

        class V(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                if node in facts.identity_binds:
                    itself.append(node)
                    return  # `x = f(x)` binds x to itself: no rebinding
                for t in node.targets:
                    names = _tuple_names(t.target)
                    if name not in (names or ()) and not (isinstance(t.target, cst.Name) and t.target.value == name):
                        continue
                    values = _tuple_names(node.value)
                    if names is None or values is None or sorted(names) != sorted(values) \
                            or len(set(names)) != len(names) or names == values \
                            or not all(n in facts.ref_names for n in names):
                        ok[0] = False
                    else:
                        found.append(node)

            def visit_For(self, node: cst.For) -> None:
                if binds(node.target):
                    ok[0] = False

            def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
                ok[0] = ok[0] and not binds(node.target)

            def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
                ok[0] = ok[0] and not binds(node.target)

            def visit_AsName(self, node: cst.AsName) -> None:
                ok[0] = ok[0] and not binds(node.name)

        run_visitor(body, V())
        if ok[0] and not found and itself:  # only `x = f(x)`, f returning x itself: the same buffer
            return [], False
        if not ok[0] or not found:
            return None
        group = set()
        for node in found:
            group |= set(_tuple_names(node.targets[0].target))
        roots = set().union(*(facts.roots.get(n, ()) for n in group))
        others = {other for other, other_roots in facts.roots.items() if other not in group and other_roots & roots}
        if any(r.startswith("global ") for r in roots):
            return None
        if not others and not any(r.startswith("param ") for r in roots):
            return found, False
        top = [s for s in body.body if isinstance(s, cst.SimpleStatementLine) and found[0] in s.body]
        used = {n for n, _, _ in uses(body, facts.store_names).items}
        if not counted or len(found) != 1 or len(found[0].targets) != 1 or not top or others & used \
                or _op_targets(facts.node) & group & set(facts.maybe_scalar):
            return None
        return found, True

    return is_rotation


def _op_targets(func) -> set[str]:
    """The names `name op= v` binds in the function: a parameter among them may hold a Python
    number, which `op=` rebinds (maybe_scalar). A parameter only rotated and read (`u, un = un, u`
    with `un[1:-1] = f(u)`, the double buffer of every stencil script) is an array or the
    function fails in NumPy; npr_rotate refuses a target that is no Ref (NPR120)."""
    found = set()

    class V(cst.CSTVisitor):
        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                found.add(node.target.value)

    run_visitor(func, V())
    return found


def _tuple_names(expr) -> list[str] | None:
    if isinstance(expr, (cst.Tuple, cst.List)) and all(isinstance(e.value, cst.Name) for e in expr.elements):
        return [e.value.value for e in expr.elements]
    return None
