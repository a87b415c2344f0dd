"""Operators on sequences: `[1, 2] * a`, `a == (0, 1)` with one operand a list or tuple written
in the source (or a name only ever bound to one) and the other one that may be an array; and
`a // b`, `a % b` and `divmod(a, b)` (`npr_floordiv(a, b)`, `npr_mod(a, b)`, `npr_divmod`:
NumPy's integer division by zero and signs of a zero result).

What: NumPy applies the operator to np.asarray of the sequence; Python's own operator would
repeat or compare the list: `a + [1, 2]  ->  npr_seq_op(a[...], '+', [1, 2])`. Kept as written:
a sequence against a literal number or sequence, a shape, a size or len() (`[0] * n`).
"""

from __future__ import annotations

import functools

import libcst as cst

from ...analysis.aliases import FunctionFacts
from ...emit import jaxnames as J
from ..registry import emits
from ...analysis.nodes import nodes_of
from .augassign import _number_literal
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
    if op is None or not _sequence_against_array(ctx.seq_names, original.left, original.right):
        if op in ("//", "%") and not _string_literal(original.left) \
                and not (_positive_integer(original.right) and _integer_in(ctx.int_names, original.left)):
            # an integer array divided by zero is 0 in NumPy, -1 in jax.numpy, and a zero
            # quotient or remainder has NumPy's sign (rt/ops.py): with any divisor, since
            # `-4.0 % 2` is 0.0 in NumPy and -0.0 in jax.numpy; `n // 4` on an integer stays
            return J.call(J.FLOORDIV if op == "//" else J.MOD, _bare(updated.left), _bare(updated.right)) \
                .with_changes(lpar=updated.lpar, rpar=updated.rpar)
        if op == "**" and (not _number_literal(original.right) or _negative_integer(original.right)) \
                and not _number_literal(original.left):
            # an integer to a negative integer power raises in NumPy (rt/ops.py)
            return J.call(J.POW, _bare(updated.left), _bare(updated.right)).with_changes(
                lpar=updated.lpar, rpar=updated.rpar)
        return updated
    return J.call(J.SEQ_OP, updated.left, J.string(op), updated.right).with_changes(
        lpar=updated.lpar, rpar=updated.rpar)


def _negative_integer(node) -> bool:
    """`-1`, `-(2)`: an integer literal below zero (`x ** -1` raises for an integer x in NumPy)."""
    return isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and \
        isinstance(node.expression, cst.Integer)


@emits(cst.Call, order=15)
def emit_divmod(original: cst.Call, updated: cst.Call, ctx):
    """The builtin `divmod(a, b)` -> `npr_divmod(a, b)`."""
    if not (isinstance(original.func, cst.Name) and original.func.value == "divmod"
            and original.func.value not in ctx.f.roots and len(original.args) == 2
            and all(a.keyword is None and a.star == "" for a in original.args)
            and original not in ctx.m.value_wrap):
        return None
    return updated.with_changes(func=J.name(J.DIVMOD))


@emits(cst.Comparison)
def emit_comparison(original: cst.Comparison, updated: cst.Comparison, ctx):
    if len(updated.comparisons) != 1:  # a chain stays Python's
        return updated
    (target,) = updated.comparisons
    op = _CMP_OPS.get(type(target.operator))
    left, right = original.left, original.comparisons[0].comparator
    if op is None or not (_sequence_against_array(ctx.seq_names, left, right)
                          or op in ("==", "!=") and _sequences_of_values(ctx.seq_names, left, right)):
        return updated
    return J.call(J.SEQ_OP, updated.left, J.string(op), target.comparator).with_changes(
        lpar=updated.lpar, rpar=updated.rpar)


def _sequences_of_values(seq_names: frozenset[str], left, right) -> bool:
    """`(i, j) == (2, 3)`, `t != (2, 4)`: two lists or tuples (or names only bound to one), not
    both displays of literals (a traced integer item's truth, which Python's comparison asks, is
    npr_seq_op's: rt/ops.py)."""
    literal = (cst.Integer, cst.Float, cst.SimpleString)
    return _is_sequence(seq_names, left) and _is_sequence(seq_names, right) and not all(
        isinstance(side, (cst.List, cst.Tuple)) and all(isinstance(e.value, literal) for e in side.elements)
        for side in (left, right))


def _bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    """An operand as a call argument: `(ix + 1) % ng` -> `npr_mod(ix + 1, ng)`."""
    if isinstance(expr, cst.GeneratorExp) or not getattr(expr, "lpar", None):
        return expr
    return expr.with_changes(lpar=[], rpar=[])


def _positive_integer(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Integer) and expr.evaluated_value > 0


def _integer_in(names: frozenset[str], expr: cst.BaseExpression) -> bool:
    """An expression that can only be an integer (Python's or a traced one): integer literals,
    shapes, sizes, len(), int(), the `names` (that only ever hold integers), and +, -, *, //,
    % of those. Integer `//` and `%` by a positive literal are exact in jax.numpy."""
    if isinstance(expr, cst.Integer) or isinstance(expr, cst.Name) and expr.value in names:
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _integer_in(names, expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)) \
            and _integer_in(names, expr.left) and _integer_in(names, expr.right)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("int", "len"):
        return True
    return not isinstance(expr, cst.Float) and is_static_meta(expr) and not (
        isinstance(expr, cst.Attribute) and expr.attr.value == "shape")


def once_per_function(compute):
    """compute(f), a pure function of the facts f, made once per FunctionFacts (kept in f.derived)."""
    @functools.wraps(compute)
    def derived(f: FunctionFacts):
        if compute.__name__ not in f.derived:
            f.derived[compute.__name__] = compute(f)
        return f.derived[compute.__name__]
    return derived


@once_per_function
def integer_names(f: FunctionFacts) -> frozenset[str]:
    """Names that only ever hold integers: `for i in range(...)` targets, parameters passed to
    range() as a bound (anything else raises there), and locals every binding of which is an
    integer expression of those (a fixed point: `m = n // 2` after `n = len(x)`)."""
    seeds, loop_targets = set(), set()
    for node in nodes_of(f.node, (cst.Call, cst.For)):
        if _sized_call(node):  # range(n), np.zeros((n, n)): n is an integer or the call raises
            shape = node.args[0].value if isinstance(node.func, cst.Attribute) else None
            bounds = shape.elements if isinstance(shape, (cst.Tuple, cst.List)) else node.args
            seeds.update(a.value.value for a in bounds
                         if isinstance(a.value, cst.Name) and a.value.value in f.params
                         and getattr(a, "keyword", None) is None)
        if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and isinstance(node.iter, cst.Call) \
                and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range":
            seeds.add(node.target.value)
            loop_targets.add(id(node.target))
    values: dict[str, list] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name) and id(target) not in loop_targets:
            values.setdefault(target.value, []).append(value)
    ints = frozenset(n for n in seeds if n not in values)
    while True:
        grown = ints | {n for n, vals in values.items() if (n in seeds or n not in f.params)
                        and all(v is not None and _integer_in(ints, v) for v in vals)}
        if grown == ints:
            return ints
        ints = frozenset(grown)


_SIZED = ("zeros", "ones", "empty", "full", "eye", "identity")


def _sized_call(node: cst.CSTNode) -> bool:
    """range(...), or np.zeros/ones/empty/full/eye/identity with a positional first argument."""
    if not isinstance(node, cst.Call) or not node.args:
        return False
    if isinstance(node.func, cst.Name):
        return node.func.value == "range"
    return isinstance(node.func, cst.Attribute) and node.func.attr.value in _SIZED \
        and isinstance(node.func.value, cst.Name) and node.func.value.value in ("np", "numpy") \
        and node.args[0].keyword is None


def _string_literal(expr: cst.BaseExpression) -> bool:
    """`"%d" % n`: string formatting, Python's own operator."""
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def _is_sequence(seq_names: frozenset[str], expr: cst.BaseExpression) -> bool:
    """A list or tuple written in the source, or a name only ever bound to one: an operand
    NumPy would turn into an array."""
    return isinstance(expr, (cst.List, cst.Tuple, cst.ListComp)) or \
        isinstance(expr, cst.Name) and expr.value in seq_names


def _sequence_against_array(seq_names: frozenset[str], left, right) -> bool:
    """One operand a sequence, the other one that may be an array (not a literal number or
    sequence, a shape, a size or len(): `[0] * n` with such an `n` stays as written)."""
    if _is_sequence(seq_names, left):
        left, right = right, left
    elif not _is_sequence(seq_names, right):
        return False
    return not (_is_sequence(seq_names, left) or is_static_meta(left))


def list_params(f: FunctionFacts, seq_names: frozenset[str], int_names: frozenset[str]) -> tuple[str, ...]:
    """Parameters a list argument must reach as a list, not an array: direct operands of a
    sequence operator (`w + [t]`, npr_seq_op), of `+` with another parameter (`ks + ks`) and of
    `*` with an integer (`w * 2`, `n * w`),
    where Python joins or repeats a list and NumPy would compute elementwise; not a parameter
    that is an integer by its use (a `range` bound, a shape: `3 * n`). Every other list
    argument becomes an array, as NumPy computes with it (npr_jit's `lists=`). The rewriter
    finds them once per function (ModuleRewriter.list_names); compile reads its record."""
    found = set()
    for node in nodes_of(f.node, (cst.BinaryOperation, cst.Comparison)):
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _BIN_OPS:
            pairs = [(node.left, node.right)]
        elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
                and type(node.comparisons[0].operator) in _CMP_OPS:
            pairs = [(node.left, node.comparisons[0].comparator)]
        else:
            continue
        repeat = isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and \
                all(isinstance(e, cst.Name) and e.value in f.params and e.value not in int_names
                    for e in (node.left, node.right)):
            # `ks + ks`, `p + q`: lists passed are joined, as Python joins them (taken for arrays,
            # `max(ks + ks)` of `ks = [2]` was 4: the items added); arrays passed add as before
            found.update((node.left.value, node.right.value))
        for left, right in pairs:
            for a, b in ((left, right), (right, left)):
                if isinstance(a, cst.Name) and a.value in f.params and a.value not in int_names and (
                        _sequence_against_array(seq_names, left, right) or repeat and _integer_in(int_names, b)):
                    found.add(a.value)
    for call in nodes_of(f.node, cst.Call):  # `list(st)`: Python's list of st's items themselves (a 0-d
        if isinstance(call.func, cst.Name) and call.func.value == "list" and "list" not in f.roots \
                and len(call.args) == 1 and isinstance(call.args[0].value, cst.Name) \
                and call.args[0].value.value in f.params and not call.args[0].star:  # array stays the caller's)
            found.add(call.args[0].value.value)
    return tuple(p for p in f.params if p in found)


def sequence_names(f: FunctionFacts) -> frozenset[str]:
    """Local names every binding of which is a list or tuple literal."""
    kinds: dict[str, bool] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name):
            seq = isinstance(value, (cst.List, cst.Tuple, cst.ListComp))
            kinds[target.value] = kinds.get(target.value, True) and seq
    return frozenset(n for n, seq in kinds.items() if seq and n not in f.params)
