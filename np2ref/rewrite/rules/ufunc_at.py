"""UfuncAt: `np.add.at(a, idx, v)` (subtract, multiply, maximum, minimum; divide, floor_divide,
remainder, fmod, power and the logical and bitwise ones, applied one element at a time).

What: an unbuffered in-place update at indices that may repeat becomes the runtime's scatter
through the Ref: `np.add.at(a, idx, v)  ->  npr_ufunc_at('add', a, idx, v)`.
Exact: every repeated index contributes, as in NumPy (a scatter-add, not a store). Refused:
other ufuncs' `.at` (NPR101), a first argument that is not a view of a ref (NPR202/NPR205).
"""

from __future__ import annotations

import libcst as cst

from ...analysis import effects as fx
from ...emit import jaxnames as J
from ..registry import emits_special, plans
from ..syntax import plain, positional
from .views import mark_write_target


@plans(cst.Call, order=70)
def plan_ufunc_at(node: cst.Call, ctx) -> bool:
    qual = ctx.numpy_name(node.func)
    parts = qual.split(".") if qual is not None else []
    if not (len(parts) == 3 and parts[2] == "at"):
        return False
    args = positional(node)
    ctx.m.skip_numpy.add(node.func)
    if parts[1] not in fx.UFUNC_AT:
        ctx.sink.report("NPR101", f"np.{parts[1]}.at is not translated", ctx.span(node),
                        hint="np2ref translates .at of add, subtract, multiply, maximum, minimum, divide, "
                        "floor_divide, remainder, fmod, power and the logical and bitwise and/or/xor")
    elif args and mark_write_target(ctx, args[0].value, node):
        ctx.m.special_calls[node] = ("ufunc_at", parts[1])
    return True


@emits_special("ufunc_at")
def emit_ufunc_at(original: cst.Call, updated: cst.Call, detail, ctx):
    return cst.Call(J.name(J.UFUNC_AT), [cst.Arg(J.string(detail)), *plain(updated.args)])
