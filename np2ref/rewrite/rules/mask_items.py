"""MaskItem: one element of a selection, by an integer literal: `x[m][k]` with a mask by its
form (`cdf[cdf > 0][0]`, `x[x < t][-1]`), `np.nonzero(m)[j][k]` (`np.where(m)[j][k]`,
`m.nonzero()[j][k]`), `np.flatnonzero(m)[k]`, `np.argwhere(m)[k]`; and the count of such
index arrays, `len(np.where(m)[0])`, `np.where(m)[0].size` (`np.nonzero`, `m.nonzero()`,
`np.flatnonzero`, `np.argwhere`), and of a name bound to `np.nonzero(m)[0]` (`idx[0]`, `len(idx)`:
rules/nonzero.py index_names, the name holding the mask m != 0).

What:
    cdf[cdf > 0][0]          ->  npr_mask_item(cdf, cdf > 0, 0)
    np.where(cdf > u)[0][0]  ->  npr_nonzero_item(cdf > u, 0, 0)
    len(np.where(x > t)[0])  ->  npr_nonzero_count(x > t, 0)
Why: NumPy's selection (and its nonzero index arrays) has a data-dependent length, which jit
cannot make (NPR107, NPR004); the k-th selected element is found from the mask's cumulative
count instead. Exact: the same element (C order, as NumPy's `x[b]` is `x[b.nonzero()]`), and
NumPy's IndexError, with its message, when the selection has no k-th element (a run-time check,
as for any index: docs/semantics.md "Index bounds"; `.pure` and `bounds="unchecked"` skip it
and then give the first element); the count is a Python int, as len() gives. A mask that turns
out to be no traced boolean array is NumPy's own read (rt/masks.py).
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits, emits_special, plans
from ..syntax import unchecked, whole_load_base
from .mask_index import int_literal
from .mask_values import looks_boolean
from .nonzero import nonzero_operand
from ...analysis.nodes import run_visitor


def _one_index(node: cst.Subscript) -> cst.BaseExpression | None:
    if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return node.slice[0].slice.value
    return None


def _one_arg(call: cst.Call) -> bool:
    return len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star


def _item_form(node: cst.Subscript, ctx):
    """(form, the call to claim or None) of `node`, an item of a selection; else None. form:
    'item' for x[m][k], j for np.nonzero(m)[j][k], 'flat', 'argwhere'."""
    value = node.value
    if isinstance(value, cst.Subscript) and (inner := _one_index(value)) is not None \
            and looks_boolean(inner, ctx.bool_names) and nonzero_operand(inner, ctx.imports, ctx.locals) is None:
        return "item", None  # (x[np.nonzero(m)][k]: plan_nonzero_index plans its index as the mask)
    return _index_arrays(value, ctx)


def is_selection(expr: cst.BaseExpression, ctx) -> bool:
    """Whether `expr` is a selection through a mask, of a data-dependent length: a selection
    name (rules/selections.py), `x[m]` with a mask by its form, `np.where(m)[0]` and the like."""
    if isinstance(expr, cst.Name):
        return expr.value in ctx.selections or _index_name(expr, ctx)
    if isinstance(expr, cst.Subscript) and (index := _one_index(expr)) is not None \
            and looks_boolean(index, ctx.bool_names):
        return True
    return _index_arrays(expr, ctx) is not None


def selected_by_form(func: cst.FunctionDef):
    """is_selection by the form alone, before analysis (frontend/returns.py): `x[m]` with a
    comparison-like mask, NumPy's index arrays by their spelling, and names bound to either
    (taking one for data when it is not keeps a branch on it exact: npr_if runs Python's `if`
    for a concrete condition)."""
    def form(e) -> bool:
        if isinstance(e, cst.Subscript) and (index := _one_index(e)) is not None:
            if looks_boolean(index, frozenset()) or int_literal(index) == 0 and nonzero_operand(e.value) is not None:
                return True
        return isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) \
            and e.func.attr.value in ("flatnonzero", "argwhere")
    names = {t.target.value for node in _assigns(func) if form(node.value)
             for t in node.targets if isinstance(t.target, cst.Name)}
    return lambda e: form(e) or isinstance(e, cst.Name) and e.value in names


def _assigns(func: cst.FunctionDef) -> list[cst.Assign]:
    found = []

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node) -> None:
            found.append(node)
    run_visitor(func.body, Find())
    return found


@plans(cst.Subscript, order=10)
def plan_mask_item(node: cst.Subscript, ctx) -> None:
    """See the module docstring. Never claims the subscript."""
    index = _one_index(node)
    k = int_literal(index) if index is not None else None
    if k is None:
        return
    found = _item_form(node, ctx)
    if found is None:
        return
    form, call = found
    ctx.m.mask_items[node] = form
    _claim(ctx, call, form)


def _claim(ctx, call: cst.Call | None, form) -> None:
    """The index arrays' call: not NPR004 (plan_item_call), not mapped to jnp."""
    if call is not None:
        ctx.m.special_calls[call] = ("nonzero_item", form)
        ctx.m.skip_numpy.add(call.func)


def _index_name(node: cst.BaseExpression, ctx) -> bool:
    """Whether node is a name bound to `np.nonzero(m)[0]` (rules/nonzero.py index_names: it
    holds the mask m != 0, raveled for np.flatnonzero), so that its items are m's positions."""
    return isinstance(node, cst.Name) and any(
        t.value == node.value and v in ctx.nonzero_bindings for t, v in ctx.f.bindings)


def _index_arrays(node: cst.BaseExpression, ctx):
    """(form, the call) of `np.nonzero(m)[j]` (form j), `np.flatnonzero(m)`, `np.argwhere(m)`;
    (0, None) for a name bound to `np.nonzero(m)[0]` (_index_name)."""
    if _index_name(node, ctx):
        return 0, None
    if isinstance(node, cst.Subscript) and (index := _one_index(node)) is not None:
        j = int_literal(index)
        if j is not None and j >= 0 and nonzero_operand(node.value, ctx.imports, ctx.locals) is not None:
            return j, node.value
    if isinstance(node, cst.Call) and _one_arg(node):
        qual = ctx.numpy_name(node.func)
        if qual in ("numpy.flatnonzero", "numpy.argwhere"):
            return ("flat" if qual == "numpy.flatnonzero" else "argwhere"), node
    return None


@plans(cst.Call, order=4)
def plan_item_call(node: cst.Call, ctx) -> bool:
    """`len(np.where(m)[0])`: npr_nonzero_count; claims the calls plan_mask_item claimed."""
    if isinstance(node.func, cst.Name) and node.func.value == "len" and "len" not in ctx.locals \
            and _one_arg(node) and (found := _index_arrays(node.args[0].value, ctx)) is not None:
        form, call = found
        ctx.m.special_calls[node] = ("nonzero_count", form)
        _claim(ctx, call, form)
        return True
    kind = ctx.m.special_calls.get(node)
    return kind is not None and kind[0] == "nonzero_item"


@plans(cst.Attribute, order=4)
def plan_index_count(node: cst.Attribute, ctx) -> None:
    """`np.where(m)[0].size`: npr_nonzero_count."""
    if node.attr.value == "size" and (found := _index_arrays(node.value, ctx)) is not None:
        form, call = found
        ctx.m.mask_items[node] = form
        _claim(ctx, call, form)


@emits(cst.Attribute, order=4)
def emit_index_count(original: cst.Attribute, updated: cst.Attribute, ctx):
    form = ctx.m.mask_items.get(original)
    if form is None:
        return None
    return _count(updated.value, form)


@emits_special("nonzero_item")
def emit_item_call(original: cst.Call, updated: cst.Call, detail, ctx):
    return updated  # (its subscript's emitter reads its mask: emit_mask_item)


@emits_special("nonzero_count")
def emit_nonzero_count(original: cst.Call, updated: cst.Call, detail, ctx):
    return _count(updated.args[0].value, detail)


def _count(arrays: cst.BaseExpression, form) -> cst.Call:
    return J.call(J.NONZERO_COUNT, _mask_of(arrays, form), _form(form))


def _mask_of(arrays: cst.BaseExpression, form) -> cst.BaseExpression:
    """m of the emitted index arrays `np.nonzero(m)[j]`, `np.flatnonzero(m)`, `np.argwhere(m)`;
    an index name itself (it holds the mask)."""
    if isinstance(form, int):
        if not isinstance(arrays, cst.Subscript):
            return arrays  # `idx` of `idx = np.nonzero(m)[0]`
        arrays = unchecked(arrays.value)
    return arrays.args[0].value if arrays.args else arrays.func.value  # (m.nonzero())


def _form(form) -> cst.BaseExpression:
    return cst.Integer(str(form)) if isinstance(form, int) else J.string(form)


@emits(cst.Subscript, order=2)
def emit_mask_item(original: cst.Subscript, updated: cst.Subscript, ctx):
    form = ctx.m.mask_items.get(original)
    if form is None or original in ctx.targets:  # (`x[m][0] = v` writes a copy: left as written)
        return None
    k = updated.slice[0].slice.value
    if form == "item":
        inner = updated.value
        if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value == J.SUB:
            return J.call(J.MASK_ITEM, inner.args[0].value, inner.args[1].value, k)  # x[m] of a written x
        if not isinstance(inner, cst.Subscript):
            return None  # (another form of the read: left as it is, refused when traced)
        return J.call(J.MASK_ITEM, whole_load_base(unchecked(inner.value)), inner.slice[0].slice.value, k)
    return J.call(J.NONZERO_ITEM, _mask_of(updated.value, form), k, _form(form))
