"""IfToCond: `if` / `elif` / `else` whose condition may depend on array data.

What: each branch becomes a function of the values it assigns that are read afterwards; refs are
closed over, so array writes in a branch happen in place.
    if r2 < cutoff2:                       def _then(f):
        f = f + k * r2                         f = f + k * r2
        acc[i] += f                 ->         npr_at(acc)[i] += f
                                               return f
                                           f = npr_if(r2 < cutoff2, _then, None, f)
`npr_if` runs the chosen branch in Python when the condition is a concrete value (a static
`if` stays exactly what it was) and `lax.cond` when it is traced. `and`/`or`/`not` in the
condition become `npr_and`/`npr_or`/`npr_not`, which keep Python's meaning on concrete values.

Exact: the same statements run on the taken path. Kept as a Python `if` (so a traced condition
is refused with NPR030): a branch with `return`, `break` or `continue` (frontend/jumps.py and
frontend/returns.py rewrote the ones they can to flags and one exit `_return_n`, whose two
values npr_if(..., returns=) checks), or one that rebinds an array that is written.
"""

from __future__ import annotations

import dataclasses
import functools
import re

import libcst as cst

from ...analysis.nodes import contains, nodes_of, run_visitor
from ...emit import jaxnames as J
from ..registry import emits, plans
from . import unbound
from .control import condition, data_dependent_changes, scalar_rebinds, thunk, uses
from .loop_forms import read_outside
from .mask_items import is_selection


@dataclasses.dataclass
class BranchPlan:
    carried: tuple[str, ...]
    defined_before: frozenset[str]
    in_loop: bool = False  # a carried name not bound before may be bound by an earlier iteration


class _Exits(cst.CSTVisitor):
    def __init__(self):
        self.found = False

    def visit_Return(self, node) -> None:
        self.found = True

    def visit_Break(self, node) -> None:
        self.found = True

    def visit_Continue(self, node) -> None:
        self.found = True

    def visit_For(self, node) -> bool:
        return True


_METADATA = frozenset({"shape", "ndim", "size", "dtype"})
_RETURN_NAME = re.compile(r"_return_\d+")


def static_condition(expr: cst.BaseExpression, selected=None) -> bool:
    """A condition on shapes, lengths, types or None: never on array data, so it stays a
    Python `if` (`if u.shape[0] > 3:`, `if out is None:`). `selected(e)`: whether e is a
    selection through a mask (rules/mask_items.py is_selection), whose length (`len(v)`,
    `v.size`, `X[m].shape[0]`) is array data."""
    def static(e):
        return static_condition(e, selected)
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False", "None")
    if isinstance(expr, cst.Attribute):
        return expr.attr.value in _METADATA and not (selected is not None and selected(expr.value))
    if isinstance(expr, cst.Subscript):
        return static(expr.value)
    if isinstance(expr, cst.Call):
        return isinstance(expr.func, cst.Name) and expr.func.value in ("len", "isinstance", "hasattr") \
            and not (selected is not None and expr.func.value == "len" and expr.args and selected(expr.args[0].value))
    if isinstance(expr, cst.Comparison):
        if all(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in expr.comparisons):
            return True
        if any(isinstance(e, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
               for e in (expr.left, *(c.comparator for c in expr.comparisons))):
            return True  # `size == "small"`: array data is never compared with a string
        return static(expr.left) and all(static(c.comparator) for c in expr.comparisons)
    if isinstance(expr, cst.BooleanOperation):
        return static(expr.left) and static(expr.right)
    if isinstance(expr, cst.UnaryOperation):
        return static(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return static(expr.left) and static(expr.right)
    return False


def plan_if(node: cst.If, function_uses, facts, selected=None) -> BranchPlan | str:
    if static_condition(node.test, selected):
        return "a static condition"
    exits = _Exits()
    run_visitor(node.body, exits)
    if node.orelse is not None:
        run_visitor(node.orelse, exits)
    if exits.found:
        return "return/break/continue in a branch"
    inside = uses(node, facts.store_names)
    inside_nodes = {id(n) for _, _, n in inside.items}
    stored = [n for n, s, _ in inside.items if s]
    outside_reads = {n for n in stored if read_outside(n, node, function_uses, inside_nodes, facts)}
    for name in dict.fromkeys(stored):
        if name in facts.ref_names and not scalar_rebinds(node, name, facts, picks=True) \
                and not inside.aug_only.get(name) \
                and name in outside_reads:  # (a name that may hold a scalar is carried: npr_if refuses a Ref)
            return f"the written array `{name}` is rebound in a branch"
    # Carried: read after the `if` (or in a later iteration of a loop around it), or read inside
    # the `if` (its test, a branch) before the branch assigns it.
    first_store: dict[str, int] = {}
    read_first: set[str] = set()
    for i, (name, is_store, _) in enumerate(inside.items):
        if is_store:
            first_store.setdefault(name, i)
        elif name not in first_store:
            read_first.add(name)
    read_first |= unbound.read_before_bound(node, [node], facts)  # bound by one inner branch only
    # `u op= v` on a written array writes its ref in place: nothing to carry (a name that may
    # hold a scalar there is rebound, and carried)
    in_place = {n for n in stored if n in facts.ref_names and inside.aug_only.get(n) and n not in facts.maybe_scalar}
    carried = tuple(n for n in dict.fromkeys(stored) if (n in outside_reads or n in read_first) and n not in in_place)
    before: set[str] = set(facts.params)
    first = next((i for i, (_, _, x) in enumerate(function_uses.items) if id(x) in inside_nodes), None)
    if first is not None:
        stores = [(n, x) for n, s, x in function_uses.items[:first] if s]
        other = _other_branches(facts.node, node) if any(n in carried for n, _ in stores) else frozenset()
        before |= {n for n, x in stores if id(x) not in other}
    return BranchPlan(carried, frozenset(before), id(node) in _ifs_in_loops(facts.node))


def _other_branches(func: cst.FunctionDef, node: cst.If) -> frozenset[int]:
    """ids of the nodes in the `then` blocks of the `if` statements whose `elif`/`else` holds
    `node`: stores there come before `node` in the text but never on its path (`if k <= 1: off =
    ...` then `elif k <= 3: off = ...`: `off` is unbound in the `elif`, not the first branch's)."""
    found: set[int] = set()

    def walk(n) -> bool:
        if n is node:
            return True
        if isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and n is not func:
            return False
        held = False
        for child in n.children:
            if walk(child):
                held = True
                if isinstance(n, cst.If) and child is n.orelse:
                    found.update(id(x) for x in nodes_of(n.body, cst.Name))
        return held

    walk(func)
    return frozenset(found)


@functools.lru_cache(maxsize=8)
def _ifs_in_loops(func: cst.FunctionDef) -> frozenset[int]:
    """The `if` statements of a function that sit in one of its `for` or `while` bodies (once per
    function, not once per `if` planned: a node's hash is its identity, the cache holds it)."""
    found: set[int] = set()

    def walk(node, in_loop):
        if isinstance(node, cst.If) and in_loop:
            found.add(id(node))
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and node is not func:
            return
        for child in node.children:
            walk(child, in_loop or isinstance(node, (cst.For, cst.While)) and child is node.body)

    walk(func, False)
    return frozenset(found)


def _selected(ctx):
    """Whether an expression is a selection through a mask, whose length is array data."""
    return lambda e: is_selection(e, ctx)


@plans(cst.If)
def plan_branch(node: cst.If, ctx) -> None:
    if isinstance(node.orelse, cst.If):
        ctx.m.elifs.add(node.orelse)
    plan = plan_if(node, ctx.function_uses, ctx.f, _selected(ctx))
    if isinstance(plan, BranchPlan):
        ctx.m.branches[node] = plan
        data_dependent_changes(ctx, node, node.test, "branch")


def _maybe_bound(name: str) -> cst.Call:
    """`npr_bound(lambda: w)`: w's value from an earlier iteration, npr_unset in the first."""
    return J.call(J.BOUND, cst.Lambda(cst.Parameters(), cst.Name(name)))


@emits(cst.If)
def emit_branch(original: cst.If, updated: cst.If, ctx):
    if original in ctx.m.elifs:
        return updated  # an `elif` is lowered by the `if` it belongs to
    statements = _lower_if(ctx, original, updated)
    return cst.FlattenSentinel(statements) if isinstance(statements, list) else statements


def _lower_if(ctx, original: cst.If, updated: cst.If):
    if original not in ctx.m.branches:
        if isinstance(updated.orelse, cst.If):  # keep the chain, lowering what can be
            inner = _lower_if(ctx, original.orelse, updated.orelse)
            if isinstance(inner, list):
                return updated.with_changes(orelse=cst.Else(cst.IndentedBlock(body=inner)))
        return updated
    plan = ctx.m.branches[original]
    n = ctx.next_count()
    carried = list(plan.carried)
    params = [cst.Param(cst.Name(c)) for c in carried]
    ret = [cst.parse_statement(f"return {', '.join(carried)}")] if carried else []

    def branch(name, block):
        stmts = list(block.body) if block is not None else [cst.SimpleStatementLine([cst.Pass()])]
        return cst.FunctionDef(cst.Name(name), cst.Parameters(params=params),
                               cst.IndentedBlock(body=[*stmts, *ret]))

    then_fn = branch(f"_then_{n}", updated.body)
    orelse = updated.orelse
    if isinstance(orelse, cst.If):  # elif: the else branch is the rest of the chain
        inner = _lower_if(ctx, original.orelse, orelse.with_changes(leading_lines=[]))
        orelse = cst.IndentedBlock(body=inner if isinstance(inner, list) else [inner])
    elif isinstance(orelse, cst.Else):
        orelse = orelse.body
    defs = [then_fn.with_changes(leading_lines=updated.leading_lines)]
    else_name: cst.BaseExpression = cst.Name("None")
    if orelse is not None or carried:
        defs.append(branch(f"_else_{n}", orelse))
        else_name = cst.Name(f"_else_{n}")
    init = [cst.Arg(unbound.init_expr(ctx, original, c, cst.Name(c) if c in plan.defined_before else
                                      _maybe_bound(c) if plan.in_loop else cst.Name(J.UNSET))) for c in carried]
    # a function's return value (frontend/returns.py names it): both branches' types checked
    returns = [cst.Element(cst.Integer(str(k))) for k, c in enumerate(carried) if _RETURN_NAME.fullmatch(c)]
    if returns:
        init.append(cst.Arg(cst.Tuple(returns if len(returns) > 1 else [returns[0].with_changes(comma=cst.Comma())]),
                            keyword=cst.Name("returns"), equal=cst.AssignEqual(
                                whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))))
    call = cst.Call(cst.Name(J.IF), [cst.Arg(condition(updated.test)), cst.Arg(cst.Name(f"_then_{n}")),
                                     cst.Arg(else_name), *init])
    if carried:
        stmt = cst.Assign([cst.AssignTarget(cst.parse_expression(", ".join(carried)))], call)
    else:
        stmt = cst.Expr(call)
    return [*defs, ctx.mark_line(original, cst.SimpleStatementLine([stmt]))]


# ---- conditional expressions and `and`/`or` as values ----------------------------------------
# `a if c else b` -> `npr_ifexp(c, lambda: a, lambda: b)`, `a and b` -> `npr_andv(a, lambda: b)`:
# Python's own on concrete values (only the chosen operand is evaluated), lax.cond on traced
# ones. A static condition (shapes, None, strings) stays Python's ternary.

def _lambda_safe(*exprs) -> bool:
    """Operands a lambda can hold unchanged: no `:=` (it would bind in the lambda), yield or await."""
    return not any(contains(e, (cst.NamedExpr, cst.Yield, cst.Await)) for e in exprs)


def _mark_conditions(ctx, test) -> None:
    if isinstance(test, cst.BooleanOperation):
        ctx.m.conditions.add(test)
        _mark_conditions(ctx, test.left)
        _mark_conditions(ctx, test.right)
    elif isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        ctx.m.conditions.add(test)
        _mark_conditions(ctx, test.expression)


@plans(cst.If, cst.While, cst.CompIf, order=10)
def plan_condition(node, ctx) -> None:
    _mark_conditions(ctx, node.test)


@plans(cst.IfExp)
def plan_ifexp(node: cst.IfExp, ctx) -> None:
    _mark_conditions(ctx, node.test)
    if not static_condition(node.test, _selected(ctx)) and _lambda_safe(node):
        ctx.m.ifexps.add(node)


@plans(cst.BooleanOperation)
def plan_bool_value(node: cst.BooleanOperation, ctx) -> None:
    if node not in ctx.m.conditions and not static_condition(node) and _lambda_safe(node.right):
        ctx.m.bool_values.add(node)


@plans(cst.UnaryOperation)
def plan_not_value(node: cst.UnaryOperation, ctx) -> None:
    if isinstance(node.operator, cst.Not) and node not in ctx.m.conditions and not static_condition(node):
        ctx.m.bool_values.add(node)


@emits(cst.UnaryOperation)
def emit_not_value(original: cst.UnaryOperation, updated: cst.UnaryOperation, ctx):
    if original not in ctx.m.bool_values:
        return None
    return J.call(J.NOT, updated.expression).with_changes(lpar=updated.lpar, rpar=updated.rpar)


@emits(cst.IfExp)
def emit_ifexp(original: cst.IfExp, updated: cst.IfExp, ctx):
    if original not in ctx.m.ifexps:
        return None
    return J.call(J.IFEXP, condition(updated.test), thunk(updated.body), thunk(updated.orelse)).with_changes(
        lpar=updated.lpar, rpar=updated.rpar)


@emits(cst.BooleanOperation)
def emit_bool_value(original: cst.BooleanOperation, updated: cst.BooleanOperation, ctx):
    if original not in ctx.m.bool_values:
        return None
    helper = J.ANDV if isinstance(updated.operator, cst.And) else J.ORV
    return J.call(helper, updated.left, thunk(updated.right)).with_changes(lpar=updated.lpar, rpar=updated.rpar)
