"""In-place functions and methods: `np.copyto(a, v)`, `np.fill_diagonal(a, v)`, `a.fill(v)`,
`a.sort()`, ... (fx.INPLACE_FUNCTIONS, fx.INPLACE_METHODS).

What: each becomes its runtime helper applied to the Ref it writes:
    np.copyto(u, v, where=m)  ->  npr_copyto(u, v[...], where=m)
    x.sort()                  ->  npr_sort(x)
Exact: the helpers follow NumPy's casting and order. Refused: in-place methods np2ref does not
translate (NPR102), a copyto mask that is a view of its destination (NPR126), a target that is
not a view of a ref (NPR202/NPR205).
"""

from __future__ import annotations

import libcst as cst

from ...analysis import effects as fx
from ...emit import jaxnames as J
from ..registry import emits_special, plans
from ..syntax import plain, positional, unloaded
from .views import mark_write_target


@plans(cst.Call, order=80)
def plan_inplace_function(node: cst.Call, ctx) -> bool:
    qual = ctx.numpy_name(node.func)
    if qual not in fx.INPLACE_FUNCTIONS:
        return False
    args = positional(node)
    ctx.m.skip_numpy.add(node.func)
    if qual == "numpy.copyto" and _copyto_mask_reads_dst(ctx, node, args):
        return True
    if args and mark_write_target(ctx, args[fx.INPLACE_FUNCTIONS[qual]].value, node):
        ctx.m.special_calls[node] = ("inplace_function", qual)
    return True


@plans(cst.Call, order=100)
def plan_inplace_method(node: cst.Call, ctx) -> bool:
    func = node.func
    if not (isinstance(func, cst.Attribute) and ctx.imports.qualify(func, ctx.locals) is None):
        return False
    meth = func.attr.value
    if meth in fx.INPLACE_METHODS:
        if mark_write_target(ctx, func.value, node):
            ctx.m.special_calls[node] = ("inplace_method", meth)
    elif meth in fx.REFUSED_INPLACE_METHODS:
        ctx.sink.report("NPR102", f"the in-place method .{meth}() is not translated", ctx.span(node))
    return True


def _copyto_mask_reads_dst(ctx, node: cst.Call, args) -> bool:
    """`np.copyto(a, v, where=m)` with m a view of a (not a itself): NumPy reads the mask as
    it writes (NPR126). Reported here when the analysis sees it; views that reach a helper
    through two parameters are caught at trace time."""
    where = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "where"), None)
    if where is None or not args or where.deep_equals(args[0].value):
        return False
    if not (ctx.roots_of(where) & ctx.roots_of(args[0].value)):
        return False
    ctx.sink.report("NPR126", "np.copyto's where= mask is a view of the array it writes; NumPy "
                    "reads the mask while writing", ctx.span(where),
                    hint="pass a copy (`where=m.copy()`) if the mask as it was before is meant")
    return True


@emits_special("inplace_function")
def emit_inplace_function(original: cst.Call, updated: cst.Call, detail, ctx):
    args = list(updated.args)
    if detail == "numpy.copyto" and len(original.args) >= 2 and isinstance(original.args[0].value, cst.Name) \
            and original.args[1].value.deep_equals(original.args[0].value) and original.args[1].keyword is None:
        args[1] = args[1].with_changes(value=args[0].value)  # the array itself: NumPy does nothing
    if detail == "numpy.copyto":  # a mask that may be a view of dst goes as itself (NPR126)
        args = [unloaded(a) if a.keyword is not None and a.keyword.value == "where" else a for a in args]
    return cst.Call(J.name(J.IN_PLACE_FUNCTIONS[detail]), plain(args))


@emits_special("inplace_method")
def emit_inplace_method(original: cst.Call, updated: cst.Call, detail, ctx):
    return cst.Call(J.name(J.IN_PLACE_METHODS[detail]), [cst.Arg(updated.func.value), *plain(updated.args)])
