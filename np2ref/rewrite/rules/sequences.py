"""Operators on sequences: `[1, 2] * a`, `a == (0, 1)` with one operand a list or tuple written
in the source (or a name only ever bound to one) and the other one that may be an array; and
`a // b` and `divmod(a, b)` with a divisor that may be zero (`npr_floordiv(a, b)`, `npr_divmod`:
NumPy's integer division by zero).

What: NumPy applies the operator to np.asarray of the sequence; Python's own operator would
repeat or compare the list: `a + [1, 2]  ->  npr_seq_op(a[...], '+', [1, 2])`. Kept as written:
a sequence against a literal number or sequence, a shape, a size or len() (`[0] * n`).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.aliases import FunctionFacts
from ...emit import jaxnames as J
from ..registry import emits
from .calls import is_static_meta

# Operators NumPy applies to a list or tuple operand as to np.asarray of it (npr_seq_op).
_BIN_OPS = {type(v): k for k, v in {
    "+": cst.Add(), "-": cst.Subtract(), "*": cst.Multiply(), "/": cst.Divide(), "//": cst.FloorDivide(),
    "%": cst.Modulo(), "**": cst.Power(), "&": cst.BitAnd(), "|": cst.BitOr(), "^": cst.BitXor(),
    "<<": cst.LeftShift(), ">>": cst.RightShift(), "@": cst.MatrixMultiply()}.items()}
_CMP_OPS = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
            cst.GreaterThan: ">", cst.GreaterThanEqual: ">="}


@emits(cst.BinaryOperation)
def emit_binary_operation(original: cst.BinaryOperation, updated: cst.BinaryOperation, ctx):
    op = _BIN_OPS.get(type(updated.operator))
    if op is None or not _sequence_against_array(ctx, original.left, original.right):
        if op == "//" and not _nonzero_literal(original.right):
            # an integer array divided by zero is 0 in NumPy, -1 in jax.numpy (rt/ops.py)
            return J.call(J.FLOORDIV, updated.left, updated.right).with_changes(
                lpar=updated.lpar, rpar=updated.rpar)
        return updated
    return J.call(J.SEQ_OP, updated.left, J.string(op), updated.right).with_changes(
        lpar=updated.lpar, rpar=updated.rpar)


@emits(cst.Call, order=15)
def emit_divmod(original: cst.Call, updated: cst.Call, ctx):
    """The builtin `divmod(a, b)` -> `npr_divmod(a, b)`, unless the divisor is a nonzero literal."""
    if not (isinstance(original.func, cst.Name) and original.func.value == "divmod"
            and original.func.value not in ctx.f.roots and len(original.args) == 2
            and all(a.keyword is None and a.star == "" for a in original.args)
            and not _nonzero_literal(original.args[1].value) and original not in ctx.m.value_wrap):
        return None
    return updated.with_changes(func=J.name(J.DIVMOD))


@emits(cst.Comparison)
def emit_comparison(original: cst.Comparison, updated: cst.Comparison, ctx):
    if len(updated.comparisons) != 1:  # a chain stays Python's
        return updated
    (target,) = updated.comparisons
    op = _CMP_OPS.get(type(target.operator))
    if op is None or not _sequence_against_array(ctx, original.left, original.comparisons[0].comparator):
        return updated
    return J.call(J.SEQ_OP, updated.left, J.string(op), target.comparator).with_changes(
        lpar=updated.lpar, rpar=updated.rpar)


def _nonzero_literal(expr: cst.BaseExpression) -> bool:
    """`2`, `-3`, `0.5`: a divisor `a // b` needs no zero-divisor care for."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float)) and expr.evaluated_value != 0


def _is_sequence(ctx, expr: cst.BaseExpression) -> bool:
    """A list or tuple written in the source, or a name only ever bound to one: an operand
    NumPy would turn into an array."""
    return isinstance(expr, (cst.List, cst.Tuple, cst.ListComp)) or \
        isinstance(expr, cst.Name) and expr.value in ctx.seq_names


def _sequence_against_array(ctx, left, right) -> bool:
    """One operand a sequence, the other one that may be an array (not a literal number or
    sequence, a shape, a size or len(): `[0] * n` with such an `n` stays as written)."""
    if _is_sequence(ctx, left):
        left, right = right, left
    elif not _is_sequence(ctx, right):
        return False
    return not (_is_sequence(ctx, left) or is_static_meta(left))


def sequence_names(f: FunctionFacts) -> frozenset[str]:
    """Local names every binding of which is a list or tuple literal."""
    kinds: dict[str, bool] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name):
            seq = isinstance(value, (cst.List, cst.Tuple, cst.ListComp))
            kinds[target.value] = kinds.get(target.value, True) and seq
    return frozenset(n for n, seq in kinds.items() if seq and n not in f.params)
