"""AugAssign: `x op= v` on a name (subscript targets are stores: rules/stores.py, masks:
rules/mask_store.py).

What: on a Ref that is an array, the update goes through the whole Ref (`npr_at(u)[...] += v`);
on a name that may hold an array, `x = npr_iop(x, '+', v)` keeps NumPy's in-place dtype and shape
(`maybe_scalar=True` when a 0-d value may be a NumPy scalar, which rebinds: a name bound to
`x[i]`, say). A name that may hold a number, whose array an `op=` makes another name sees (`t += a[0];
u = t; t -= 1.0` of a parameter t): `t = npr_own(npr_iop(t, '+', a[0], maybe_scalar=True),
scalar=True)`, the new array a Ref that later `op=`s write in place (u with it). Exact: NumPy's
casting rule for in-place operations (same-kind) is followed by npr_iop. Kept as written: number
accumulators (`total = 0.0` ... `total += x`, one update) and literal increments.
"""

from __future__ import annotations

import collections

import libcst as cst

from ...emit import jaxnames as J
from .zero_d import array0_maybe
from ..registry import emits, plans
from ..syntax import AUG_OPS
from .stores import store
from .views import chain_name, refuse_write_target


@plans(cst.AugAssign, order=20)
def plan_aug_assign(node: cst.AugAssign, ctx) -> None:
    t = node.target
    if isinstance(t, cst.Subscript):
        store(ctx, t, node)
    elif isinstance(t, cst.Name):
        if ctx.is_ref(t.value):
            ctx.m.no_load.add(t)
            ctx.m.iop_names[node] = "at" if t.value not in ctx.f.maybe_scalar else \
                "iop_scalar_ref" if _seen_by_others(ctx, t.value) else _iop(ctx, t.value)
        elif t.value in ctx.f.array_names:
            ctx.m.iop_names[node] = _iop(ctx, t.value)
        elif not _number_literal(node.value) and t.value not in ctx.accumulators:
            # it may hold an array (`w = a * 2`): NumPy then works in place, keeping w's
            # dtype and shape; a 0-d value may be a NumPy scalar, which rebinds
            ctx.m.iop_names[node] = "iop_maybe_scalar"
    elif isinstance(t, cst.Attribute):
        refuse_write_target(ctx, t, node)


def accumulators(f) -> frozenset[str]:
    """Names bound only to number literals and updated by one `op=` statement (`total = 0.0`
    ... `total += x`): the update rebinds them, as NumPy's first one does."""
    literal: dict[str, bool] = {}
    updates = collections.Counter()
    for target, value in f.bindings:
        if not isinstance(target, cst.Name):
            continue
        if value is None:
            updates[target.value] += 1
        else:
            literal[target.value] = literal.get(target.value, True) and _number_literal(value)
    return frozenset(n for n, ok in literal.items() if ok and updates[n] == 1)


def _iop(ctx, name: str) -> str:
    if any(w.kind != "augname" and (n := chain_name(ctx, w.target)) is not None and n.value == name
           for w in ctx.f.writes):
        # `t = a.sum()` ... `t += a[0]` ... `t[1] = 3.0`: a scalar t rebinds to an array, which
        # is written after: `t = npr_own(npr_iop(t, '+', a[0], maybe_scalar=True), scalar=True)`
        return "iop_scalar_ref"
    # `s = x[0]` ... `s += y[0]`: on a 1-d x, s is a NumPy scalar, which rebinds
    return "iop_maybe_scalar" if _element_binding(ctx.f, name) else "iop"


def _seen_by_others(ctx, name: str) -> bool:
    """Whether another name may see the array an `op=` makes of `name` while it holds a number
    (`t += a[0]` of a 2-d a): a binding of a view chain of it (`u = t`, `v = t[1:]`, `r = h(t)`)
    or a module function given it. NumPy writes that new array in place at the next `op=`, which
    the other name sees: a Ref (`iop_scalar_ref`), where a plain rebinding left it unwritten."""
    def of_name(expr) -> bool:
        base = chain_name(ctx, expr)
        return base is not None and base.value == name
    return any(value is not None and not (isinstance(target, cst.Name) and target.value == name) and of_name(value)
               for target, value in ctx.f.bindings) or \
        any(of_name(arg.value) for call, _ in ctx.f.calls for arg in call.args)


def _element_binding(f, name: str) -> bool:
    """Whether `name` is bound to a subscript whose index holds no slice, `...` or None
    (`x[0]`, `x[i, j]`): a NumPy scalar where it selects one element."""
    for target, value in f.bindings:
        if isinstance(target, cst.Name) and target.value == name and isinstance(value, cst.Subscript) and \
                all(isinstance(e.slice, cst.Index) and not isinstance(e.slice.value, cst.Ellipsis) and
                    not (isinstance(e.slice.value, cst.Name) and e.slice.value.value == "None")
                    for e in value.slice):
            return True
    return False


def _number_literal(node: cst.BaseExpression) -> bool:
    """`1`, `-0.5`, `(2)`: adding one rebinds an array to the same dtype and shape, as NumPy's
    in-place operation keeps them."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return _number_literal(node.expression)
    return isinstance(node, (cst.Integer, cst.Float))


_DIVISIONS = (cst.FloorDivideAssign, cst.ModuloAssign)
AUG_BINARY = {cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
              cst.DivideAssign: cst.Divide, cst.PowerAssign: cst.Power}


@emits(cst.AugAssign, order=20)
def emit_aug_assign(original: cst.AugAssign, updated: cst.AugAssign, ctx):
    how = ctx.m.iop_names.get(original)
    if how is None:
        if isinstance(updated.target, cst.Name) and isinstance(updated.operator, _DIVISIONS):
            # a rebinding `x //= 2` is `x = x // 2`, with NumPy's signs of zero (rules/sequences.py)
            func = J.FLOORDIV if isinstance(updated.operator, cst.FloorDivideAssign) else J.MOD
            return cst.Assign([cst.AssignTarget(updated.target)], J.call(func, updated.target, updated.value))
        if isinstance(updated.target, cst.Name) and type(updated.operator) in AUG_BINARY \
                and array0_maybe(updated.target, ctx):
            # `z *= 2` rebinds; of a 0-d array (`z = np.asarray(x.sum())`) NumPy's is still one
            value = cst.BinaryOperation(updated.target, AUG_BINARY[type(updated.operator)](), updated.value)
            return cst.Assign([cst.AssignTarget(updated.target)], J.call(J.KIND_AS, value, updated.target))
        return updated
    target = updated.target
    if how == "at":
        proxy = cst.Subscript(J.call(J.STORE_PROXY, target), [cst.SubscriptElement(cst.Index(cst.Ellipsis()))])
        return updated.with_changes(target=proxy)
    op = AUG_OPS[type(updated.operator)]
    flags = {"maybe_scalar": cst.Name("True")} if how in ("iop_maybe_scalar", "iop_scalar_ref") else {}
    result = J.call(J.IOP, target, J.string(op), updated.value, **flags)
    if how == "iop_scalar_ref":  # an array it rebinds to is written after: a Ref
        result = J.call(J.OWN, result, scalar=cst.Name("True"))
    return cst.Assign([cst.AssignTarget(target)], result)
