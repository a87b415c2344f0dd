"""Selections kept to be stored back: `v = X[m, :]`, perhaps `v = v[:, perm]`, then
`Y[m, :] = v` (the lattice-Boltzmann bounce-back: save the populations inside the obstacle,
reorder their directions, collide, put them back).

What:
    bndryF = F[cylinder, :]                 bndryF = npr_keep(F, cylinder)
    bndryF = bndryF[:, [0, 5, 6, 7, 8, ...]] -> bndryF = npr_reselect(bndryF, np.s_[:, [0, 5, ...]])
    F[cylinder, :] = bndryF                  npr_keep_store(F, cylinder, bndryF)

Why: NumPy's selection has a data-dependent length, which jit cannot make. Kept whole (X's
values when v was bound, and the mask: rt/mask_checks.py NprSelection), v is reindexed along the axes
the mask does not cover, and stored back under the same mask with `where`.

Exact because the selected axis only ever pairs with itself: a reindexing that leaves it whole
(a full slice there, slices and at most one integer array elsewhere, checked when traced) moves
the same elements in the whole array as in the selection, and the store writes back under the
mask the selection was made with (npr_keep_store checks it is the same mask and that the whole
shapes agree, NPR104 otherwise). A name qualifies only when every occurrence of it in the
function is its binding, then, later in the same block, such reindexings and stores; anything
else leaves the read as it was.
"""

from __future__ import annotations

import collections

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits, plans
from ..syntax import whole_load_base
from .mask_index import _code
from .mask_store import _may_be_mask
from .selections import _names_in
from .views import mark_write_target
from ...analysis.nodes import run_visitor


def _full(element: cst.SubscriptElement) -> bool:
    s = element.slice
    return isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None


def mask_pattern(node: cst.Subscript, bool_names, int_names) -> tuple[int, str] | None:
    """(the mask's axis, the mask's code) for `X[m]`, `X[:, m]`, `X[m, :]`: full slices around
    one mask-like index; else None."""
    masks = [k for k, e in enumerate(node.slice) if not _full(e)]
    if len(masks) != 1:
        return None
    k = masks[0]
    s = node.slice[k].slice
    if not isinstance(s, cst.Index) or s.star is not None or not _may_be_mask(s.value, bool_names, int_names):
        return None
    return k, _code(s.value)


def _reindexes(node: cst.BaseExpression, name: str, axis: int) -> bool:
    """`v[:, perm]`: a subscript of the name that leaves the selected axis whole."""
    return isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == name \
        and (len(node.slice) <= axis or _full(node.slice[axis])) \
        and all(isinstance(e.slice, cst.Slice) or e.slice.star is None for e in node.slice)


def kept_selection_names(func: cst.FunctionDef, bool_names, int_names) -> dict[str, int]:
    """{name: the selected axis} of the names bound `v = X[m, :]` whose every other occurrence in
    the function comes after that binding in its block, as a reindexing `v = v[:, perm]` or as
    the value of a store under the same mask, `Y[m, :] = v` or `Y[m, :] = v[:, perm]`."""
    counts = collections.Counter(n.value for n in _names_in(func))
    found: dict[str, int] = {}
    for block in _blocks(func):
        statements = [s.body[0] if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 else None
                      for s in block.body]
        for at, stmt in enumerate(statements):
            if not (isinstance(stmt, cst.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0].target, cst.Name) and isinstance(stmt.value, cst.Subscript)):
                continue
            name = stmt.targets[0].target.value
            pattern = mask_pattern(stmt.value, bool_names, int_names)
            if name in found or pattern is None or _names(stmt.value) & {name}:
                continue
            seen, stores = 1, 0
            for later in statements[at + 1:]:
                if not isinstance(later, cst.Assign) or len(later.targets) != 1:
                    continue
                target, value = later.targets[0].target, later.value
                if isinstance(target, cst.Name) and target.value == name and _reindexes(value, name, pattern[0]):
                    seen += 2
                elif isinstance(target, cst.Subscript) and name not in _names(target) \
                        and mask_pattern(target, bool_names, int_names) == pattern \
                        and (isinstance(value, cst.Name) and value.value == name or _reindexes(value, name, pattern[0])):
                    seen, stores = seen + 1, stores + 1
            if stores and seen == counts.get(name, 0):
                found[name] = pattern[0]
    return found


def _blocks(node: cst.CSTNode) -> list[cst.IndentedBlock]:
    """The blocks under node, in the order of the source."""
    finder = _Blocks()
    run_visitor(node, finder)
    return finder.found


class _Blocks(cst.CSTVisitor):
    def __init__(self):
        self.found: list[cst.IndentedBlock] = []

    def visit_IndentedBlock(self, block) -> None:
        self.found.append(block)


def _names(node: cst.CSTNode) -> set[str]:
    return {n.value for n in _names_in(node)}


# -- planning --------------------------------------------------------------------------------
@plans(cst.Assign, order=14)
def plan_kept(node: cst.Assign, ctx) -> bool:
    """The binding, reindexings and stores of a kept selection name (kept_selection_names)."""
    kept = ctx.kept_selections
    if not kept or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if isinstance(target, cst.Name) and target.value in kept:
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value == target.value:
            ctx.m.kept_reindex.add(value)
        else:
            ctx.m.kept_reads[value] = kept[target.value]
        return False
    value_name = value.value if isinstance(value, cst.Subscript) else value
    if isinstance(target, cst.Subscript) and isinstance(value_name, cst.Name) and value_name.value in kept:
        if isinstance(value, cst.Subscript):
            ctx.m.kept_reindex.add(value)
        if mark_write_target(ctx, target.value, node):
            ctx.m.kept_stores[node] = kept[value_name.value]
        return True
    return False


# -- emitting --------------------------------------------------------------------------------
def emit_kept_read(updated: cst.Subscript, axis: int) -> cst.Call:
    """`v = X[:, m]` of a kept name: npr_keep(X, m, axis=1)."""
    kwargs = {"axis": cst.Integer(str(axis))} if axis else {}
    return J.call(J.KEEP, whole_load_base(updated.value), updated.slice[axis].slice.value, **kwargs)


def emit_reindex(updated: cst.Subscript) -> cst.Call:
    """`v[:, perm]` of a kept name: npr_reselect(v, np.s_[:, perm])."""
    return J.call(J.RESELECT, whole_load_base(updated.value), J.index_value(updated.slice))


@emits(cst.Assign, order=29)
def emit_kept_store(original: cst.Assign, updated: cst.Assign, ctx):
    axis = ctx.m.kept_stores.get(original)
    if axis is None:
        return None
    target = updated.targets[0].target
    kwargs = {"axis": cst.Integer(str(axis))} if axis else {}
    value = whole_load_base(updated.value)  # the kept name: npr_keep's value, never a Ref
    return cst.Expr(J.call(J.KEEP_STORE, target.value, target.slice[axis].slice.value, value, **kwargs))
