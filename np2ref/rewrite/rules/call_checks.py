"""What a call of a module function may not do, checked where it is planned (rules/calls.py):
pass an argument that may share the buffer of one the callee writes (checked apart at trace time
through `npr_apart` where the argument is a view of a ref, else NPR201), or leave out a written
parameter whose default is an array (NPR202: one array, made when the callee is defined, that
every such call writes into, as module-level state).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import number_literal
from ...diagnostics import Note
from .views import mark_ref


def check_shared_buffers(ctx, node, callee, facts, pairs) -> None:
    """An argument the callee reads may share the buffer of one it writes (flow-insensitive
    roots cannot tell a buffer swap from the same buffer): load it through `npr_apart`,
    which checks at trace time that the two really are apart, and refuses otherwise."""
    index = {id(a.value): i for i, a in enumerate(node.args)}
    written = [(a, p) for a, p in pairs if p in facts.ref_names]
    for b, q in pairs:
        if q is None or q in facts.ref_names:
            continue
        rb = ctx.roots_of(b)
        clash = [index[id(a)] for a, _ in written if ctx.roots_of(a) & rb]
        if not clash:
            continue
        if mark_ref(ctx, b):
            ctx.m.apart.setdefault(node, {})[index[id(b)]] = clash
        else:
            ctx.sink.report(
                "NPR201", f"`{q}` of {callee}() may share the buffer of an argument it writes",
                ctx.span(node), notes=[Note(f"{callee}() writes its parameter(s) "
                                            f"{', '.join(sorted(facts.mutated_params))}",
                                            ctx.span(facts.node))],
                hint=f"pass a copy for `{q}`")


def check_written_defaults(ctx, node, callee, facts, given) -> None:
    """A call that leaves out a parameter the callee writes, whose default is not a literal
    (`buf=np.zeros(3)`): NumPy's callee writes into that one default array, which every such call
    shares, as module-level state (it accumulates from call to call); traced, it would be a
    fresh constant each time (NPR202)."""
    if None in given:  # unpacked arguments (NPR208's when the callee writes)
        return
    params = facts.node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        name = param.name.value
        if param.default is None or name in given or name not in facts.mutated_params \
                or _literal_default(param.default):
            continue
        ctx.sink.report(
            "NPR202", f"{callee}() writes its parameter `{name}`, left out here: its default "
            f"`{cst.Module([]).code_for_node(param.default)}` is one array shared by every call that "
            "leaves it out, module-level state np2ref does not translate writes into",
            ctx.span(node), notes=[Note(f"`{name}` defaults to one array made when {callee}() is defined",
                                        ctx.span(param))],
            hint=f"pass `{name}` in this call, or default it to None and make the array in {callee}()")


def _literal_default(expr) -> bool:
    """None, a bool, a number or a string: a default no write can change."""
    return isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)) or number_literal(expr) \
        or isinstance(expr, cst.Name) and expr.value in ("None", "True", "False")
