"""A conditional expression that chooses a helper's returned argument: `r = in_place(u) if c else
step(u)`, then `r[0] = 1` (or `return` of it), where `in_place` returns its parameter itself (or
a view of it).

What: refused, NPR128 (returned and never written: only where the helper returns the parameter
itself, whose identity NumPy's caller gets; a view of a read-only argument comes back a copy, as
`return u[1:]` does). In NumPy `r` is then the caller's `u` on one path, a new array on the
other, and the write reaches `u` only on the first. The translation passes such a call's value
into the choice (npr_value: a load, as for any operand that is not bound to a name), so `r` was
a new array on both paths and the write was lost, silently (a static `c` too: the choice stays
Python's, the load the same). A call bound on its own (`r = in_place(u)`) keeps its identity
(rules/calls.py emit_identity_bind) and is not concerned.

Exact or not: nothing is translated.
"""

from __future__ import annotations

import libcst as cst

from ..registry import plans
from ..syntax import walk


@plans(cst.IfExp, order=5)
def plan_ifexp_identity(node: cst.IfExp, ctx) -> None:
    written = _written(node, ctx)
    if not written and not _returned(node, ctx):
        return
    for operand in _operands(node):
        facts = ctx.all.get(operand.func.value) if isinstance(operand, cst.Call) and isinstance(
            operand.func, cst.Name) else None
        # (returned unwritten: a view of a parameter comes back a copy, as `return u[1:]` does;
        # the parameter itself is the caller's object: docs/guide.md)
        if facts is not None and (facts.returns_alias if written else facts.returns_param):
            callee = operand.func.value
            params = ", ".join(sorted(ctx.all[callee].returns_alias))
            ctx.sink.report(
                "NPR128", f"a conditional expression chooses the value of {callee}(), which returns its parameter "
                f"{params} itself or a view of it, and the choice is written through or returned: in NumPy it is the "
                "caller's array on that path and a later write reaches it; np2ref would pass a copy",
                ctx.span(node), hint=f"copy the call's result where a new array is meant (`{callee}(...).copy()`), "
                "or write into the argument itself rather than into the chosen value")
            return


def _operands(node: cst.IfExp):
    """The values the expression may give: its two operands, nested conditional expressions
    looked into."""
    for value in (node.body, node.orelse):
        if isinstance(value, cst.IfExp):
            yield from _operands(value)
        else:
            yield value


def _written(node: cst.IfExp, ctx) -> bool:
    """Whether `node` is bound to a name that is written (a Ref)."""
    return any(value is node and isinstance(target, cst.Name) and target.value in ctx.f.ref_names
               for target, value in ctx.f.bindings)


def _returned(node: cst.IfExp, ctx) -> bool:
    return any(isinstance(n, cst.Return) and n.value is node for n in walk(ctx.f.node))
