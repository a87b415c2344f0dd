"""Small node helpers shared by the rule families: operator spellings, argument lists, loads."""

from __future__ import annotations

import libcst as cst

from ..analysis.nodes import walk  # noqa: F401 - the rule families' walker
from ..emit import jaxnames as J

AUG_OPS = {
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**",
    cst.BitAndAssign: "&", cst.BitOrAssign: "|", cst.BitXorAssign: "^",
    cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>", cst.MatrixMultiplyAssign: "@",
}


def target_names(t, out: set[str]) -> None:
    """The plain names a (tuple) target binds."""
    if isinstance(t, cst.Name):
        out.add(t.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for e in t.elements:
            target_names(e.value, out)


def target_subscripts(target: cst.BaseExpression):
    """The subscripts a target expression stores into (`a[i] = `, `a[i], b[j] = `, `*a[i], = `)."""
    if isinstance(target, cst.Subscript):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for e in target.elements:
            yield from target_subscripts(e.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_subscripts(target.value)


def whole_load_base(value: cst.BaseExpression) -> cst.BaseExpression:
    """`u` for the whole load `u[...]` or `npr_load(u)` (npr_get loads it), else value."""
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.Ellipsis) and isinstance(value.value, cst.Name):
        return value.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == J.LOAD \
            and len(value.args) == 1:
        return value.args[0].value
    return value


def unchecked(value: cst.BaseExpression) -> cst.BaseExpression:
    """`x` for `npr_get(x)` (a helper that checks the index itself), else value."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == J.GET:
        return value.args[0].value
    return value


def unloaded(arg: cst.Arg) -> cst.Arg:
    """`name[...]` (a whole load of a ref) as `name`: the runtime loads it after its checks."""
    v = arg.value
    if isinstance(v, cst.Subscript) and isinstance(v.value, cst.Name) and len(v.slice) == 1 and \
            isinstance(v.slice[0].slice, cst.Index) and isinstance(v.slice[0].slice.value, cst.Ellipsis):
        return arg.with_changes(value=v.value)
    return arg


def plain(args) -> list[cst.Arg]:
    """Arguments with a tidy trailing comma."""
    args = list(args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


def positional(call: cst.Call) -> list[cst.Arg]:
    """The call's arguments without a keyword."""
    return [a for a in call.args if a.keyword is None]
