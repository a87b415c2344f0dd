"""Calls of objects np2ref cannot see into: `SOURCE.draw(shape)` on a module-level object the
module analysis let through (analysis/module.py opaque_call) runs on the host at run time, in
program order, as often as NumPy calls it (rt/opaque.py's npr_opaque)."""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits_special, plans


@plans(cst.Call, order=52)
def plan_opaque_call(node: cst.Call, ctx) -> bool:
    """`SOURCE.draw(shape)` on a module-level object np2ref cannot see into (the module analysis
    let it through: analysis/module.py opaque_call): an ordered host call (npr_opaque)."""
    func = node.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ctx.objects \
            and func.value.value not in ctx.locals and not any(a.star for a in node.args):
        ctx.m.special_calls[node] = ("opaque", func.attr.value)
        ctx.inner.add(func)
        return True
    return False


@emits_special("opaque")
def emit_opaque_call(original, updated, detail, ctx):
    return cst.Call(J.name(J.OPAQUE), [cst.Arg(updated.func.value), cst.Arg(J.string(detail)), *updated.args])
