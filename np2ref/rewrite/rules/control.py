"""Shared by the control-flow rules (rules/loops.py, rules/branches.py): name uses in order,
conditions, and the data-dependent container changes NPR034 refuses."""

from __future__ import annotations

import libcst as cst

from ...analysis import containers
from ...diagnostics import Note
from ...emit import jaxnames as J
from ...analysis.nodes import run_visitor


class Uses(cst.CSTVisitor):
    """Name occurrences in order: (name, is_store, node)."""

    def __init__(self, store_names):
        self.store_names = store_names
        self.items: list[tuple[str, bool, cst.Name]] = []
        self.aug_only: dict[str, bool] = {}  # name -> every store of it is `name op= v`
        self.returns = False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        run_visitor(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        run_visitor(node.value, self)
        return False

    def visit_Return(self, node: cst.Return) -> None:
        self.returns = True

    def visit_AugAssign(self, node: cst.AugAssign) -> bool:
        run_visitor(node.value, self)
        if isinstance(node.target, cst.Name):  # `x += v` reads x, then stores it
            self.items.append((node.target.value, False, node.target))
            self.items.append((node.target.value, True, node.target))
            self.aug_only.setdefault(node.target.value, True)
        else:
            run_visitor(node.target, self)
        return False

    def visit_Assign(self, node: cst.Assign) -> bool:
        run_visitor(node.value, self)  # the value is evaluated before the targets are bound
        for t in node.targets:
            run_visitor(t.target, self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        store = node in self.store_names
        if store:
            self.aug_only[node.value] = False
        self.items.append((node.value, store, node))


def uses(node: cst.CSTNode, store_names) -> Uses:
    v = Uses(store_names)
    run_visitor(node, v)
    return v


def condition(test: cst.BaseExpression) -> cst.BaseExpression:
    """`a and b` / `a or b` / `not a` in a condition: Python's meaning on concrete values, the
    elementwise one on traced scalars (Python's own operators would need a concrete bool)."""
    if isinstance(test, cst.BooleanOperation):
        right = condition(test.right)
        # Python evaluates it only when the left operand does not decide; after `m is None or`,
        # the right operand may be one that raises on None (`m is None or v > m`)
        if not eager_safe(right) or _tests_identity(test.left):
            # (only its truth matters here: the operands' types need not agree, unlike npr_andv)
            helper = J.AND_THEN if isinstance(test.operator, cst.And) else J.OR_ELSE
            return J.call(helper, condition(test.left), thunk(right))
        helper = J.AND if isinstance(test.operator, cst.And) else J.OR
        return J.call(helper, condition(test.left), right)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return J.call(J.NOT, condition(test.expression))
    if _in_display(test):  # `n in (2, 3)`: Python's containment, on traced data the or of the ==s
        op = test.comparisons[0]
        found = J.call(J.IN, test.left, cst.Tuple([e.with_changes(comma=cst.MaybeSentinel.DEFAULT)
                                                   for e in op.comparator.elements]))
        return J.call(J.NOT, found) if isinstance(op.operator, cst.NotIn) else found
    if isinstance(test, cst.Comparison) and len(test.comparisons) > 1 and _chain_is_pure(test):
        # `lo < x < hi` is `lo < x and x < hi` with x evaluated once: x has no effects
        pairs, left = [], test.left
        for c in test.comparisons:
            pairs.append(cst.Comparison(left.with_changes(lpar=[], rpar=[]) if left is not test.left else left,
                                        [c.with_changes(comparator=c.comparator)]))
            left = c.comparator
        out = pairs[0]
        for p in pairs[1:]:
            out = J.call(J.AND, out, p)
        return out
    return test.with_changes(lpar=[], rpar=[]) if isinstance(test, cst.BooleanOperation) else test


def _in_display(test: cst.BaseExpression) -> bool:
    """`x in (a, b)` / `x not in [a, b]`: one containment test in a tuple or list display."""
    return (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.In, cst.NotIn))
            and isinstance(test.comparisons[0].comparator, (cst.Tuple, cst.List))
            and not any(isinstance(e, cst.StarredElement) for e in test.comparisons[0].comparator.elements))


def _tests_identity(expr: cst.BaseExpression) -> bool:
    """Whether `expr` holds an `is` / `is not` comparison (a guard like `m is None`)."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_ComparisonTarget(self, node: cst.ComparisonTarget) -> None:
            if isinstance(node.operator, (cst.Is, cst.IsNot)):
                found.append(node)
    run_visitor(expr, _Find())
    return bool(found)


def thunk(expr: cst.BaseExpression) -> cst.Lambda:
    """`lambda: expr`: an operand Python may not evaluate, evaluated only when chosen."""
    return cst.Lambda(cst.Parameters(), expr)


_SAFE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.BitAnd, cst.BitOr, cst.BitXor)


def eager_safe(expr: cst.BaseExpression) -> bool:
    """An operand that evaluated when Python would not evaluate it cannot raise, warn or act:
    names, literals, loads of a whole ref, comparisons and +, -, * of such (no subscript, call,
    attribute, division or power)."""
    if isinstance(expr, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return eager_safe(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return isinstance(expr.operator, _SAFE_OPERATORS) and eager_safe(expr.left) and eager_safe(expr.right)
    if isinstance(expr, cst.Comparison):
        return all(not isinstance(c.operator, (cst.In, cst.NotIn)) and eager_safe(c.comparator)
                   for c in expr.comparisons) and eager_safe(expr.left)
    if isinstance(expr, cst.Call):  # npr_and(a, b) of safe operands; `npr_load(u)`, a whole ref
        return isinstance(expr.func, cst.Name) and (
            expr.func.value in (J.AND, J.OR, J.NOT) and all(eager_safe(a.value) for a in expr.args)
            or expr.func.value == J.LOAD and len(expr.args) == 1 and isinstance(expr.args[0].value, cst.Name))
    return False


def _chain_is_pure(test: cst.Comparison) -> bool:
    """A comparison chain whose operands are evaluated without effects or errors when written
    twice or evaluated eagerly: names, numbers, attributes, arithmetic on them, `len()`;
    subscripts only among the operands Python always evaluates (the first two)."""
    def pure(e, subscripts: bool) -> bool:
        if isinstance(e, (cst.Name, cst.Integer, cst.Float)):
            return True
        if isinstance(e, cst.Attribute):
            return pure(e.value, subscripts)
        if isinstance(e, cst.UnaryOperation):
            return pure(e.expression, subscripts)
        if isinstance(e, cst.BinaryOperation):
            return pure(e.left, subscripts) and pure(e.right, subscripts)
        if isinstance(e, cst.Call):  # len(x); `npr_get(u)`, the load of a ref a subscript reads
            return isinstance(e.func, cst.Name) and len(e.args) == 1 and (
                e.func.value == "len" and pure(e.args[0].value, subscripts)
                or e.func.value in (J.GET, J.LOAD) and subscripts and isinstance(e.args[0].value, cst.Name))
        if isinstance(e, cst.Subscript) and subscripts:
            return pure(e.value, True) and all(
                isinstance(s.slice, cst.Index) and pure(s.slice.value, True) for s in e.slice)
        return False
    operands = [test.left, *(c.comparator for c in test.comparisons)]
    ops_ok = all(not isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in test.comparisons)
    return ops_ok and all(pure(e, k < 2) for k, e in enumerate(operands))


def data_dependent_changes(ctx, node, test, kind: str) -> None:
    """NPR034 when a branch or `while` whose test reads a written array (always traced) changes
    a Python container: how many times it does depends on data. Other tests are checked when
    traced (npr_if, npr_while)."""
    reads = {n for n, s, _ in uses(test, ctx.f.store_names).items if not s}
    traced = sorted(reads & (ctx.f.ref_names - ctx.f.maybe_scalar))
    inside = uses(node, ctx.f.store_names)
    ids = {id(x) for _, _, x in inside.items}
    outlives = {n for n, s, x in ctx.function_uses.items if not s and id(x) not in ids}
    stored: set[str] = set()
    for name, is_store, _ in inside.items:  # read in the branch before it binds the name
        if is_store:
            stored.add(name)
        elif name not in stored:
            outlives.add(name)
    found = [c for c in containers.changes(node, ctx.f, ctx.all)
             if c.name in outlives and c.node not in ctx.reported_changes]
    if traced and found:
        ctx.reported_changes.update(c.node for c in found)
        ctx.sink.report("NPR034", f"this {kind} {found[0].what} under a condition on array data "
                        f"(`{traced[0]}`): how many times it runs is known only at run time",
                        ctx.span(found[0].node), notes=[Note("the condition", ctx.span(test))],
                        hint="collect into an array written at an index "
                        "(`out[k] = v`), or keep the list outside the compiled function")


def scalar_rebinds(node: cst.CSTNode, name: str, facts, picks: bool = False) -> bool:
    """Whether `name` may hold a scalar (`dt = dt0`, `dt *= 0.5`: facts.maybe_scalar) and every
    assignment to it inside `node` is arithmetic (`dt = t_end - t`): NumPy's 0-d result is a
    scalar, kept a value (npr_own(..., scalar=True)), so a loop or branch carries it. A binding
    of another form (`s = b[k]`, made a Ref) keeps the name a written array rebound there.
    `picks` (a branch): the builtin `min(...)`/`max(...)` counts too (`tau = min(tau * 1.2,
    tau0)`, the value npr_own(..., scalar=True) keeps as it does outside the branch; one that
    picks an array is a Ref, which npr_if refuses when traced)."""
    if name not in facts.maybe_scalar:
        return False
    ok = [True]

    def arithmetic(value) -> bool:
        return isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)) or picks and isinstance(
            value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("min", "max") \
            and value.func.value not in facts.roots

    class V(cst.CSTVisitor):
        def visit_Assign(self, assign: cst.Assign) -> None:
            for t in assign.targets:
                bound = [e.value for e in t.target.elements] if isinstance(t.target, (cst.Tuple, cst.List)) \
                    else [t.target]
                if any(isinstance(b, cst.Name) and b.value == name for b in bound) and not (
                        len(bound) == 1 and arithmetic(assign.value)):
                    ok[0] = False

        def visit_FunctionDef(self, fn) -> bool:
            return False

    run_visitor(node, V())
    return ok[0]

