"""The fence: reject, before any rewrite, syntax that np2ref does not translate.

One clear diagnostic per construct, with the line; nothing is rewritten when the fence reports
an error. `break` and `continue` are admitted: frontend/jumps.py rewrites them to flags.
"""

from __future__ import annotations

import libcst as cst

from . import closures
from ..analysis.host_code import is_errstate_with
from ..diagnostics import DiagnosticSink, Span
from ..analysis.nodes import run_visitor

_REFUSED = {
    cst.Global: ("NPR010", "`global` is not translated: a converted function cannot rebind module state",
                 "pass the value in as a parameter and return the new value"),
    cst.Nonlocal: ("NPR010", "`nonlocal` is not translated", "pass the value in and return it"),
    cst.Yield: ("NPR013", "generators are not translated", "return an array instead of yielding"),
    cst.Await: ("NPR018", "async code is not translated", None),
    cst.ClassDef: ("NPR014", "classes inside a converted function are not translated", None),
    cst.Try: ("NPR015", "`try` is not translated: array code under jit cannot catch errors", None),
    cst.With: ("NPR015", "`with` blocks are not translated", None),
    cst.Del: ("NPR016", "`del` is not translated", "let the name go out of scope instead"),
}


_LIFT_HINT = ("define it with `def` or `name = lambda` at the top of the function or of a loop body "
              "(called after it there), only call it, or define it at module level")


class Fence(cst.CSTVisitor):
    """Reports every refused construct inside one function."""

    def __init__(self, func: cst.FunctionDef, sink: DiagnosticSink, positions):
        self.func = func
        self.sink = sink
        self.positions = positions
        self.source = sink.source

    def span(self, node: cst.CSTNode) -> Span:
        r = self.positions[node]
        return Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)

    def _refuse(self, node: cst.CSTNode) -> bool:
        """Report `node` when it is refused (False: its children are not looked at)."""
        if isinstance(node, (cst.FunctionDef, cst.Lambda)) and node is not self.func:
            # the nested functions np2ref lifts are gone by now (frontend/closures.py): say why not
            why = closures.refusal(self.func, node, self.positions, self.source)
            self.sink.report("NPR014", why, self.span(node), hint=_LIFT_HINT)
            return False
        if isinstance(node, cst.FunctionDef) and node.asynchronous is not None:
            self.sink.report("NPR018", "async functions are not translated", self.span(node))
            return False
        refused = _REFUSED.get(type(node))
        if isinstance(node, cst.With) and is_errstate_with(node):
            refused = None  # rewrite/rules/errstate.py: checked there, with the imports
        if refused is not None:
            code, message, hint = refused
            self.sink.report(code, message, self.span(node), hint=hint)
            return False
        return True

    # (a method per type that can be refused, so that run_visitor reads only those nodes of the
    # module's tour: every other node is entered, as an on_visit returning True would)
    visit_FunctionDef = visit_Lambda = visit_Global = visit_Nonlocal = visit_Yield = visit_Await = \
        visit_ClassDef = visit_Try = visit_With = visit_Del = _refuse


def fence_function(func: cst.FunctionDef, sink: DiagnosticSink, positions) -> None:
    for deco in func.decorators:
        name = _decorator_name(deco.decorator)
        if name not in KNOWN_DECORATORS:
            r = positions[deco]
            sink.report("NPR017", f"decorator @{name or '...'} is not translated",
                        Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1),
                        hint="remove it; np2ref compiles the function itself")
    fence = Fence(func, sink, positions)
    if func.asynchronous is not None:
        sink.report("NPR018", "async functions are not translated", fence.span(func.name),
                    hint="make it a plain def; await the result outside")
        return
    run_visitor(func.body, fence)


def _decorator_name(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, cst.Call):
        expr = expr.func
    parts = []
    while isinstance(expr, cst.Attribute):
        parts.append(expr.attr.value)
        expr = expr.value
    if isinstance(expr, cst.Name):
        parts.append(expr.value)
        return ".".join(reversed(parts))
    return None


# Decorators that np2ref removes: its own, and the JIT compilers a user may be replacing.
KNOWN_DECORATORS = frozenset({
    "np2ref.compile", "compile", "numba.njit", "numba.jit", "njit", "jit", "jax.jit",
})
