"""Indices through a mask, by their form: `a[m]`, `a[:, m]`, `a[i, m]` (rules/mask_store.py),
and their normal form for comparing two of them."""

from __future__ import annotations

import ast

import libcst as cst

from ...emit import jaxnames as J
from ..syntax import unchecked


def _code(node: cst.CSTNode) -> str:
    """The node's normal form: its Python AST, so that spacing, parentheses, line breaks and
    comments do not matter (`d[d>L/2]` is `d[d > L/2]`)."""
    text = cst.Module([]).code_for_node(node)
    try:
        return ast.dump(ast.parse(f"_[{text}]", mode="eval").body.slice)
    except SyntaxError:  # not an expression on its own: compare the text
        return text


def mask_lead(target: cst.Subscript) -> tuple[cst.BaseExpression, int, list[cst.BaseExpression]] | None:
    """(the mask, its axis, the integer indices before it) for `a[m]`, `a[:, m]`, `a[i, m]` or
    `a[:, i, j, m]`: full slices, then indices that must be integers (npr_mask_lead checks,
    when the program is traced, that each is one value), then the mask; else None. The
    integers come right before the mask, so NumPy places the selected axis where `a[:, i][:, m]`
    has it: the store is a masked store into that view."""
    *lead, last = target.slice
    if not isinstance(last.slice, cst.Index) or last.slice.star is not None:
        return None
    slices = 0
    ints: list[cst.BaseExpression] = []
    for e in lead:
        s = e.slice
        if isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None and not ints:
            slices += 1
        elif isinstance(s, cst.Index) and s.star is None and not _new_axis_or_ellipsis(s.value):
            ints.append(s.value)
        else:
            return None
    return last.slice.value, slices, ints


def mask_trail(target: cst.Subscript) -> tuple[cst.BaseExpression, int, list[cst.BaseExpression]] | None:
    """(the mask, its axis, the indices after it) for `a[m, d]` or `a[:, m, i, j]`: full slices,
    the mask, then indices that must be integers (npr_mask_store's `trail=` checks each when
    traced): NumPy's selection is then the masked one of the view `a[:, d]`; else None."""
    slices = 0
    for e in target.slice:
        s = e.slice
        if not (isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None):
            break
        slices += 1
    rest = [e.slice for e in target.slice[slices:]]
    if len(rest) < 2 or not all(isinstance(s, cst.Index) and s.star is None and not _new_axis_or_ellipsis(s.value)
                                for s in rest):
        return None
    return rest[0].value, slices, [s.value for s in rest[1:]]


def _new_axis_or_ellipsis(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Ellipsis) or isinstance(node, cst.Name) and node.value == "None" or \
        isinstance(node, cst.Attribute) and node.attr.value == "newaxis"


_INT_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


def int_by_form(node: cst.BaseExpression, int_names) -> bool:
    """An index before a mask that is an integer by its form: a literal, a loop's integer, their
    arithmetic, or a table's entry at such an index (`8 - i`, `noslip[i]`; npr_mask_lead checks,
    when traced, that an entry is one value and not a row). A name of unknown kind (`a[rows,
    cols]`) may be an integer array: NumPy's fancy store, left to the plain store."""
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.Name):
        return node.value in int_names
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return int_by_form(node.expression, int_names)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _INT_OPS):
        return int_by_form(node.left, int_names) and int_by_form(node.right, int_names)
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return int_by_form(node.slice[0].slice.value, int_names)
    return False


def _lead_pattern(node: cst.Subscript) -> tuple | None:
    """What a masked read must share with its store's target: the full slices, the number of
    integer indices and the mask (the integers themselves may differ: `fin[8 - i, m]`)."""
    found = mask_lead(node)
    return None if found is None else (found[1], len(found[2]), _code(found[0]))


def newaxis_after_mask(node: cst.Subscript) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(b, m) for `b[m][:, None]` or `b[m, None]` (np.newaxis alike): a masked read given a new
    axis after the selected one, else None. Whole, it is `b` with a new axis after the mask's
    axes (npr_mask_newaxis)."""
    if len(node.slice) != 2 or not isinstance(node.slice[1].slice, cst.Index) \
            or not _new_axis_or_ellipsis(node.slice[1].slice.value) or isinstance(node.slice[1].slice.value, cst.Ellipsis):
        return None
    first = node.slice[0].slice
    inner = node.value
    if isinstance(first, cst.Slice) and first.lower is None and first.upper is None and first.step is None \
            and isinstance(inner, cst.Subscript) and len(inner.slice) == 1 and isinstance(inner.slice[0].slice, cst.Index) \
            and inner.slice[0].slice.star is None:
        return inner.value, inner.slice[0].slice.value  # `b[m][:, None]`
    if isinstance(first, cst.Index) and first.star is None and not _new_axis_or_ellipsis(first.value):
        return node.value, first.value  # `b[m, None]`
    return None


def guard_mask(updated: cst.Subscript) -> cst.BaseExpression | None:
    """The mask over the leading axes of unmasked(updated) (npr_mask_guard's): `m` of `b[m]`,
    `b[m][:, None]` and `b[k, m]`; None for a mask on a later axis (`b[:, m]`: not guarded)."""
    found = newaxis_after_mask(updated)
    if found is not None:
        return found[1]
    lead = mask_lead(updated)
    return lead[0] if lead is not None and lead[1] == 0 else None


def unmasked(updated: cst.Subscript) -> cst.BaseExpression:
    """A masked read of a masked store's value, whole: `b[m]` and `b[:, m]` as `b`, and
    `b[k, m]` as its view `b[k]` (npr_mask_lead: k must be one integer); `b[m][:, None]` as `b`
    with a new axis after m's (npr_mask_newaxis)."""
    found = newaxis_after_mask(updated)
    if found is not None:
        return J.call(J.MASK_NEWAXIS, unchecked(found[0]), found[1])  # (the inner read's npr_get: no index checked)
    _, axis, lead = mask_lead(updated)
    if not lead:
        return updated.value
    kwargs = {"axis": cst.Integer(str(axis))} if axis else {}
    return J.call(J.MASK_LEAD, updated.value, cst.Tuple([cst.Element(e) for e in lead]), **kwargs)


def _is_len(call: cst.Call, local_names) -> bool:
    return isinstance(call.func, cst.Name) and call.func.value == "len" and "len" not in local_names \
        and len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star


_MASKED_REDUCTIONS = frozenset(f"numpy.{n}" for n in ("sum", "mean", "prod", "max", "min", "amax", "amin",
                                                     "any", "all", "std", "var", "size", "median", "count_nonzero",
                                                     "argmax", "argmin"))
_MASKED_METHODS = frozenset({"sum", "mean", "prod", "max", "min", "any", "all", "std", "var", "argmax", "argmin"})


def _axis_keyword(node: cst.Call) -> cst.Arg | None:
    """The call's axis when it is an integer literal: `axis=0` (`X[m].mean(axis=0)`), or given
    by position after the operand (`np.mean(X[m], 0)`, `X[m].mean(0)`: the last of two
    arguments, or the one argument of a reduction method), no keyword beside it."""
    found = next((a for a in node.args if a.keyword is not None and a.keyword.value == "axis"
                  and int_literal(a.value) is not None), None)
    func = node.func
    if found is not None or not isinstance(func, cst.Attribute) or func.attr.value not in _AXIS_REDUCTIONS \
            or any(a.keyword is not None or a.star for a in node.args):
        return found
    if len(node.args) == 2 or len(node.args) == 1 and func.attr.value in _MASKED_METHODS:
        return node.args[-1] if int_literal(node.args[-1].value) is not None else None
    return None


_AXIS_REDUCTIONS = _MASKED_METHODS | {"amax", "amin", "median"}


def int_literal(node: cst.BaseExpression) -> int | None:
    """k of an integer literal `k` or `-k`, else None."""
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
            and isinstance(node.expression, cst.Integer):
        return -int(node.expression.evaluated_value)
    return None


def mask_then_slices(node: cst.Subscript) -> tuple[cst.BaseExpression, int] | None:
    """(the index, the number of full slices after it) of `x[m]`, `x[m, :]`, `x[m, :, :]` (the
    same selection as x[m] where x has the axes for the slices), else None."""
    first, *rest = node.slice
    if not isinstance(first.slice, cst.Index) or first.slice.star is not None or not all(
            isinstance(e.slice, cst.Slice) and e.slice.lower is None and e.slice.upper is None and e.slice.step is None
            for e in rest):
        return None
    return first.slice.value, len(rest)


def slices_keyword(read: cst.Subscript) -> dict[str, cst.BaseExpression]:
    """`slices=k` for the emitted `X[m, :]` (npr_select, npr_masked_reduce), none for `X[m]`."""
    return {"slices": cst.Integer(str(len(read.slice) - 1))} if len(read.slice) > 1 else {}
