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
from ..syntax import unchecked
from .mask_index import _code, mask_trail
from .mask_values import _elementwise, _ELEMENTWISE_FUNCS, looks_boolean
from .views import mark_write_target


def _where_call(node: cst.BaseExpression, ctx) -> bool:
    """`np.where(m)` with one positional argument."""
    return isinstance(node, cst.Call) and ctx.numpy_name(node.func) == "numpy.where" and len(node.args) == 1 \
        and node.args[0].keyword is None and not node.args[0].star


def _plan(ctx, target, value, stmt, op) -> bool:
    found = mask_trail(target) if isinstance(target, cst.Subscript) else None
    if found is None:
        return False
    mask, axis, trail = found
    where = _where_call(mask, ctx)
    if not (where or looks_boolean(mask, ctx.bool_names)) or where and axis:
        return False  # (`a[:, np.where(m), d]`: its coordinates on axis 1, left to the other rules)
    key = (_code(mask), axis, [_code(t) for t in trail])
    reads, scalars = [], []

    def leaf(node):
        if isinstance(node, cst.Subscript):  # `b[m, d]` under the same mask and integers: b[:, d] whole
            read = mask_trail(node)
            ok = read is not None and (_code(read[0]), read[1], [_code(t) for t in read[2]]) == key \
                and not any(isinstance(n, cst.Subscript) for n in walk(node.value))
            reads.append(node)
            return ok
        if isinstance(node, (cst.Name, cst.Attribute)):
            scalars.append(node)  # one value each (npr_mask_store checks when traced)
            return True
        return None
    if not _elementwise(value, leaf, lambda call: ctx.numpy_name(call.func) in _ELEMENTWISE_FUNCS):
        return False
    if mark_write_target(ctx, target.value, stmt):
        ctx.m.trail_stores[stmt] = (op, axis, tuple(scalars) if reads else None)
        ctx.m.trail_reads.update((r, target.value) for r in reads)
    if where:
        ctx.m.where_masks.update([mask, *(mask_trail(r)[0] for r in reads)])  # (no NPR004: calls.py)
    return True


@plans(cst.Assign, order=19)
@plans(cst.AugAssign, order=9)
def plan_trail_store(node, ctx) -> bool:
    if isinstance(node, cst.AugAssign):
        return _plan(ctx, node.target, node.value, node, AUG_OPS[type(node.operator)])
    return len(node.targets) == 1 and _plan(ctx, node.targets[0].target, node.value, node, None)


def _mask(ctx, original: cst.Subscript, updated: cst.Subscript):
    """The mask of a trail store or read, and its integers: np.where(m) as m's positions."""
    mask, _, trail = mask_trail(updated)
    if mask_trail(original)[0] in ctx.m.where_masks:  # m 1-d (checked: npr_nonzero_mask)
        mask = J.call(J.NONZERO_MASK, mask.args[0].value, J.string("tuple"))
    return mask, cst.Tuple([cst.Element(e) for e in trail])


def _emit(ctx, original, target: cst.Subscript, value: cst.BaseExpression):
    op, axis, scalars = ctx.m.trail_stores[original]
    mask, trail = _mask(ctx, original.target if isinstance(original, cst.AugAssign) else original.targets[0].target,
                        target)
    kwargs = {"op": J.string(op)} if op is not None else {}
    if scalars is not None:  # computed on the whole views in place of the reads
        kwargs["scalars"] = cst.Tuple([cst.Element(unchecked(s)) for s in scalars])
    if axis:
        kwargs["axis"] = cst.Integer(str(axis))
    kwargs["trail"] = trail
    return cst.Expr(J.call(J.MASK_STORE, target.value, mask, value, **kwargs))


@emits(cst.Subscript, order=4)
def emit_trail_read(original: cst.Subscript, updated: cst.Subscript, ctx):
    """`b[m, d]` in a trail store's value (or a mask store's, `a[m] = f(b[m, d])`): the whole view
    b[:, d] (npr_mask_trail), checked to have the axes of the target's view (`like`)."""
    like = ctx.m.trail_reads.get(original)
    if like is None:
        return None
    mask, trail = _mask(ctx, original, updated)
    axis = {"axis": cst.Integer(str(mask_trail(original)[1]))} if mask_trail(original)[1] else {}
    if original in ctx.m.plain_trails:  # `a[m] = f(o[m, 1])` (rules/mask_store.py): a's view is a itself
        axis["like_trail"] = cst.Integer("0")
    return J.call(J.MASK_TRAIL, unchecked(updated.value), mask, trail, like=like.deep_clone(), **axis)


@emits(cst.Assign, order=28)
@emits(cst.AugAssign, order=9)
def emit_trail_store(original, updated, ctx):
    if original not in ctx.m.trail_stores:
        return None
    target = updated.target if isinstance(updated, cst.AugAssign) else updated.targets[0].target
    return _emit(ctx, original, target, updated.value)
