"""MaskStore: `a[m] = expr(b[m], c[m], scalars)` and `a[m] op= ...` with a boolean mask.

What: a store through a mask whose true-count is data dependent. Why: under jit a masked read
`b[m]` has no static shape, so the statement is rewritten on whole arrays:
    a[m] = np.sqrt(b[m]) * k      ->  npr_mask_store(a, m, jnp.sqrt(b[...]) * k, leaves=(k,))
Exact when the expression is elementwise and every array in it is masked by the same `m`:
then masking after the computation equals computing on the masked values. The runtime checks
that unmasked leaves are scalars (size 1) and refuses (NPR104) otherwise; when `m` turns out to be
an integer index at trace time it stores `value[m]`, which is the same thing for elementwise code.
"""

from __future__ import annotations

import ast

import libcst as cst

from ...analysis.names import ImportMap
from ...analysis.numpy_table import UFUNCS

_ELEMENTWISE_BINOPS = (
    cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
    cst.BitAnd, cst.BitOr, cst.BitXor, cst.LeftShift, cst.RightShift,
)
_ELEMENTWISE_FUNCS = frozenset({"numpy.where", "numpy.clip"}) | frozenset(UFUNCS)


def _code(node: cst.CSTNode) -> str:
    """The node's normal form: its Python AST, so that spacing, parentheses, line breaks and
    comments do not matter (`d[d>L/2]` is `d[d > L/2]`)."""
    text = cst.Module([]).code_for_node(node)
    try:
        return ast.dump(ast.parse(f"_[{text}]", mode="eval").body.slice)
    except SyntaxError:  # not an expression on its own: compare the text
        return text


def mask_index(target: cst.Subscript) -> tuple[cst.BaseExpression, int] | None:
    """(the mask, its axis) for `a[m]` or `a[:, :, m]` (leading full slices), else None."""
    *lead, last = target.slice
    if not isinstance(last.slice, cst.Index) or last.slice.star is not None:
        return None
    for e in lead:
        s = e.slice
        if not (isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None):
            return None
    return last.slice.value, len(lead)


def _slices_code(node: cst.Subscript) -> str:
    return ",".join(_code(e.slice) for e in node.slice)


def masked_parts(value: cst.BaseExpression, target: cst.Subscript, imports: ImportMap,
                 local_names) -> tuple[list[cst.Subscript], list[cst.BaseExpression]] | None:
    """(the `X[m]` subscripts to unmask, the other leaves) if `value` is elementwise in them."""
    key = _slices_code(target)
    mask = _code(target.slice[-1].slice)
    masked: list[cst.Subscript | cst.Call] = []
    leaves: list[cst.BaseExpression] = []

    def walk(node) -> bool:
        if is_mask_rank(node, mask, imports, local_names):
            masked.append(node)
            return True
        if isinstance(node, cst.Subscript):
            if _slices_code(node) == key:
                masked.append(node)
                return True
            return False
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return True
        if isinstance(node, (cst.Name, cst.Attribute)):
            leaves.append(node)
            return True
        if isinstance(node, cst.BinaryOperation):
            return isinstance(node.operator, _ELEMENTWISE_BINOPS) and walk(node.left) and walk(node.right)
        if isinstance(node, cst.UnaryOperation):
            return walk(node.expression)
        if isinstance(node, cst.Comparison):
            return walk(node.left) and all(walk(c.comparator) for c in node.comparisons)
        if isinstance(node, cst.Call):
            qual = imports.qualify_numpy(node.func, local_names)
            if qual not in _ELEMENTWISE_FUNCS or any(a.keyword is not None or a.star for a in node.args):
                return False
            return all(walk(a.value) for a in node.args)
        return False

    if not walk(value) or not masked:
        return None
    return masked, leaves


def is_mask_rank(node, mask_code: str, imports: ImportMap, local_names) -> bool:
    """`np.arange(np.count_nonzero(m))` (or of `np.sum(m)`, `m.sum()`) for the store's own mask
    `m`: one value per selected element, its position among them (npr_mask_rank on whole
    arrays)."""
    if not (isinstance(node, cst.Call) and imports.qualify_numpy(node.func, local_names) == "numpy.arange"
            and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star):
        return False
    count = node.args[0].value
    if not isinstance(count, cst.Call) or count.args and (count.args[0].keyword or count.args[0].star):
        return False
    qual = imports.qualify_numpy(count.func, local_names)
    if qual in ("numpy.count_nonzero", "numpy.sum") and len(count.args) == 1:
        return _code(count.args[0].value) == mask_code
    return (not count.args and isinstance(count.func, cst.Attribute) and count.func.attr.value == "sum"
            and _code(count.func.value) == mask_code)


def mask_of_rank(count: cst.Call) -> cst.BaseExpression:
    """The mask in the count of an is_mask_rank call (after rewriting)."""
    return count.args[0].value if count.args else count.func.value


def looks_boolean(index: cst.BaseExpression, bool_names) -> bool:
    """An index that is a mask by its form: a comparison, `~m`, `m & n`, or a name bound to one."""
    if isinstance(index, cst.Comparison):
        return True
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.BitInvert):
        return looks_boolean(index.expression, bool_names) or isinstance(index.expression, cst.Name)
    if isinstance(index, cst.BinaryOperation) and isinstance(index.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
        return looks_boolean(index.left, bool_names) or looks_boolean(index.right, bool_names)
    if isinstance(index, cst.Name):
        return index.value in bool_names
    if isinstance(index, cst.Call):  # NumPy's predicates return boolean arrays
        func = index.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return name in _PREDICATES
    return False


_PREDICATES = frozenset({
    "isfinite", "isnan", "isinf", "isneginf", "isposinf", "signbit", "isclose", "logical_and",
    "logical_or", "logical_not", "logical_xor", "greater", "greater_equal", "less", "less_equal",
    "equal", "not_equal",
})
