"""NonzeroIndex: `x[np.nonzero(m)]` (`np.where(m)` with one argument, `m.nonzero()`), and a name
bound to `np.nonzero(m)[0]` (`np.where(m)[0]`, `m.nonzero()[0]`, `np.flatnonzero(m)`) that is
used only as an index (`idx = np.nonzero(m)[0]; x[idx].sum()`).

What: the index becomes the boolean mask `m != 0` (npr_nonzero_mask), so that the read or store
goes where `x[m]` goes: a reduction under the mask, a selection name, a masked store
(rules/mask_store.py, selections.py); a read that is kept as NumPy's selection stays NPR107.
    np.sum(x[np.nonzero(m)])  ->  npr_masked_reduce('sum', x, npr_nonzero_mask(m))
Why: NumPy's nonzero has a data-dependent length, which jit cannot make. Exact: NumPy defines
`x[b]` for a boolean b as `x[b.nonzero()]`: the same elements, in the same (C) order, and
`m.nonzero()` is `(m != 0).nonzero()`. A name bound to `np.nonzero(m)[0]` indexes the first
axis as the 1-d mask does (npr_nonzero_mask refuses a 2-d m, whose row numbers repeat: NPR107;
np.flatnonzero(m) is m raveled). Not the same: a mask that does not cover x's leading axes
raises IndexError, where NumPy's integer indices may still be in range.
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits, emits_special, plans
from .mask_index import int_literal
from ...analysis.nodes import nodes_of, run_visitor


def nonzero_operand(node, imports=None, local_names=frozenset()) -> cst.BaseExpression | None:
    """m of `np.nonzero(m)`, `np.where(m)` (one argument) or `m.nonzero()`; else None. Without
    `imports`, by the form alone (`looks_boolean`)."""
    if not isinstance(node, cst.Call) or any(a.star or a.keyword is not None for a in node.args):
        return None
    func = node.func
    if imports is None:
        name = func.attr.value if isinstance(func, cst.Attribute) else None
        ok = name == "nonzero" and len(node.args) <= 1 or name == "where" and len(node.args) == 1
        return node if ok else None
    qual = imports.qualify_numpy(func, local_names)
    if qual in ("numpy.nonzero", "numpy.where") and len(node.args) == 1:
        return node.args[0].value
    if qual is None and isinstance(func, cst.Attribute) and func.attr.value == "nonzero" and not node.args:
        return func.value
    return None


def _first_of_nonzero(value, imports, local_names) -> str | None:
    """'first' for `np.nonzero(m)[0]` (np.where, m.nonzero()), 'flat' for `np.flatnonzero(m)`."""
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.Integer) and value.slice[0].slice.value.evaluated_value == 0 \
            and nonzero_operand(value.value, imports, local_names) is not None:
        return "first"
    if isinstance(value, cst.Call) and imports.qualify_numpy(value.func, local_names) == "numpy.flatnonzero" \
            and len(value.args) == 1 and not value.args[0].star and value.args[0].keyword is None:
        return "flat"
    return None


def index_names(func: cst.FunctionDef, imports, local_names) -> dict[cst.BaseExpression, str]:
    """The values of bindings `idx = np.nonzero(m)[0]` (or `np.flatnonzero(m)`) whose name is
    bound nowhere else and occurs only as the one index of a subscript (`x[idx]`, `a[idx] =
    v`), read by an integer literal (`idx[0]`), counted (`len(idx)`, `idx.size`: rules/mask_items.py),
    outside nested functions, each with its form ('first' or 'flat')."""
    if not any(len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name)
               and _first_of_nonzero(a.value, imports, local_names) is not None for a in nodes_of(func.body, cst.Assign)):
        return {}  # (no such binding: the visitor below, a class made per call, is not needed; issue 43)
    binds: dict[str, list] = {}
    others: set[str] = set()
    indexed: set[int] = set()
    stored: set[int] = set()  # store targets: `idx[0] = v` writes idx

    class Find(cst.CSTVisitor):
        def __init__(self):
            self.nested = 0

        def visit_FunctionDef(self, node) -> None:
            self.nested += 1

        def leave_FunctionDef(self, node) -> None:
            self.nested -= 1

        visit_Lambda, leave_Lambda = visit_FunctionDef, leave_FunctionDef

        def visit_Assign(self, node) -> None:
            target = node.targets[0].target
            if len(node.targets) == 1 and isinstance(target, cst.Name) and not self.nested:
                binds.setdefault(target.value, []).append(node.value)
                indexed.add(id(target))
            stored.update(id(t.target) for t in node.targets)

        def visit_AugAssign(self, node) -> None:
            stored.add(id(node.target))

        def visit_Subscript(self, node) -> None:
            if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and not self.nested:
                index = node.slice[0].slice.value
                if isinstance(index, cst.Name):
                    indexed.add(id(index))
                elif isinstance(node.value, cst.Name) and int_literal(index) is not None and id(node) not in stored:
                    indexed.add(id(node.value))  # `idx[0]`: its first element (rules/mask_items.py)

        def visit_Call(self, node) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1 \
                    and isinstance(node.args[0].value, cst.Name) and not self.nested:
                indexed.add(id(node.args[0].value))  # `len(idx)`: the count (rules/mask_items.py)

        def visit_Attribute(self, node) -> None:
            if node.attr.value == "size" and isinstance(node.value, cst.Name) and not self.nested:
                indexed.add(id(node.value))  # `idx.size`

        def visit_Name(self, node) -> None:
            if id(node) not in indexed:
                others.add(node.value)
    run_visitor(func.body, Find())
    params = {p.name.value for p in (*func.params.params, *func.params.kwonly_params, *func.params.posonly_params)}
    found = {}
    for name, values in binds.items():
        if len(values) == 1 and name not in others and name not in params:
            form = _first_of_nonzero(values[0], imports, local_names)
            if form is not None:
                found[values[0]] = form
    return found


@plans(cst.Subscript)
def plan_nonzero_index(node: cst.Subscript, ctx) -> None:
    """`x[np.nonzero(m)]`: the index planned as npr_nonzero_mask(m); `np.nonzero(m)[0]` bound to
    an index name: npr_nonzero_mask(m, 'first')."""
    if node in ctx.nonzero_bindings:
        _claim(ctx, node.value, "first")
        ctx.m.nonzero_firsts.add(node)
    elif len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
            and nonzero_operand(node.slice[0].slice.value, ctx.imports, ctx.locals) is not None:
        _claim(ctx, node.slice[0].slice.value, None)


def _claim(ctx, call: cst.Call, form) -> None:
    ctx.m.special_calls[call] = ("nonzero_mask", form)
    ctx.m.skip_numpy.add(call.func)


@plans(cst.Call, order=5)
def plan_nonzero_call(node: cst.Call, ctx) -> bool:
    """Claims the calls plan_nonzero_index planned (no NPR004 for them), and `np.flatnonzero(m)`
    bound to an index name."""
    if ctx.nonzero_bindings.get(node) == "flat":
        _claim(ctx, node, "flat")
    kind = ctx.m.special_calls.get(node)
    return kind is not None and kind[0] == "nonzero_mask"


def emitted_mask(mask: cst.BaseExpression, loads: cst.CSTTransformer, ctx) -> cst.BaseExpression:
    """A mask kept from planning (an original node) as emitted: its leaves loaded, and
    `np.nonzero(m)` as npr_nonzero_mask(m)."""
    kind = ctx.m.special_calls.get(mask)
    if kind is not None and kind[0] == "nonzero_mask":
        operand = mask.func.value if not mask.args else mask.args[0].value
        return J.call(J.NONZERO_MASK, operand.visit(loads))
    return mask.visit(loads)


@emits_special("nonzero_mask")
def emit_nonzero_mask(original: cst.Call, updated: cst.Call, detail, ctx):
    operand = updated.func.value if not updated.args else updated.args[0].value
    if detail is None:
        return J.call(J.NONZERO_MASK, operand)
    return J.call(J.NONZERO_MASK, operand, J.string(detail))


@emits(cst.Subscript, order=1)
def emit_nonzero_first(original: cst.Subscript, updated: cst.Subscript, ctx):
    """`np.nonzero(m)[0]` bound to an index name: the call's own emission (the 'first' mask)."""
    return updated.value if original in ctx.m.nonzero_firsts else None
