"""MaskTrail: a mask first, integers after it: `vel[m, d] *= -1`, `grid[m, k] = v`, and the
same through `np.where(m)`: `pos[np.where(m), d] *= -1`, `pos[np.where(m)] = 0`.

What: a store whose index is (full slices,) a boolean mask, then indices that are one integer
each, with one value (no read in it):
    vel[m, d] *= -1            ->  npr_mask_store(vel, m, -1, op='*', trail=(d,))
Why: `a[m, d]` with a traced mask has a data-dependent shape (NPR104 when traced); NumPy's
selection is that of the view `a[:, d]` through m, elements and order alike (the mask's axes
come first, the integers after it pick one element of each later axis), so it is a masked
store into that view. np.where(m) with one argument is the tuple m.nonzero(); alone as the
index it is m itself (NumPy defines `a[m]` as `a[m.nonzero()]`); inside an index tuple NumPy
makes it one integer array of shape (m.ndim, k) on one axis, which for a 1-D m is m's positions
there (a selection of shape (1, k), the same elements; no duplicates). Exact, checked when
traced: each index after the mask is one integer, the value one value (size 1), a np.where(m)
inside a tuple has a 1-D m (else its rows of coordinates index one axis: refused, NPR104). A
mask that turns out to be no boolean array is NumPy's own store. A value that reads arrays
(`pos[m, d] = 2 * hi - pos[m, d]`) is left to the other rules (NPR104 when traced).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import walk
from ...emit import jaxnames as J
from ..registry import emits, plans
from ..syntax import AUG_OPS
from .mask_index import mask_trail
from .mask_store import looks_boolean
from .views import mark_write_target


def _where_call(node: cst.BaseExpression, ctx) -> bool:
    """`np.where(m)` with one positional argument."""
    return isinstance(node, cst.Call) and ctx.numpy_name(node.func) == "numpy.where" and len(node.args) == 1 \
        and node.args[0].keyword is None and not node.args[0].star


def _plan(ctx, target, value, stmt, op) -> bool:
    if not isinstance(target, cst.Subscript) or any(isinstance(n, cst.Subscript) for n in walk(value)):
        return False
    found = mask_trail(target)
    if found is None:
        return False
    where = _where_call(found[0], ctx)
    if not (where or looks_boolean(found[0], ctx.bool_names)) or where and found[1]:
        return False  # (`a[:, np.where(m), d]`: its coordinates on axis 1, left to the other rules)
    if mark_write_target(ctx, target.value, stmt):
        ctx.m.trail_stores[stmt] = (op, found[1])
    if where:
        ctx.m.where_masks.add(found[0])  # (no NPR004 for it: calls.plan_where_one_argument)
    return True


@plans(cst.Assign, order=19)
@plans(cst.AugAssign, order=9)
def plan_trail_store(node, ctx) -> bool:
    if isinstance(node, cst.AugAssign):
        return _plan(ctx, node.target, node.value, node, AUG_OPS[type(node.operator)])
    return len(node.targets) == 1 and _plan(ctx, node.targets[0].target, node.value, node, None)


def _emit(ctx, original, target: cst.Subscript, value: cst.BaseExpression):
    op, axis = ctx.m.trail_stores[original]
    mask, _, trail = mask_trail(target)
    if mask_trail(original.target if isinstance(original, cst.AugAssign) else original.targets[0].target)[0] \
            in ctx.m.where_masks:  # np.where(m) in the tuple: m's positions, m 1-d (checked)
        mask = J.call(J.NONZERO_MASK, mask.args[0].value, J.string("tuple"))
    kwargs = {"op": J.string(op)} if op is not None else {}
    if axis:
        kwargs["axis"] = cst.Integer(str(axis))
    kwargs["trail"] = cst.Tuple([cst.Element(e) for e in trail])
    return cst.Expr(J.call(J.MASK_STORE, target.value, mask, value, **kwargs))


@emits(cst.Assign, order=28)
@emits(cst.AugAssign, order=9)
def emit_trail_store(original, updated, ctx):
    if original not in ctx.m.trail_stores:
        return None
    target = updated.target if isinstance(updated, cst.AugAssign) else updated.targets[0].target
    return _emit(ctx, original, target, updated.value)
