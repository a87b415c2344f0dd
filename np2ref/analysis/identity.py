"""Identity returns: a module function that returns one of its parameters as itself on every
path, and the statements `x = f(..., x, ...)` that therefore bind x to the object it already holds.

    def clamp(u):          u_next = clamp(u_next)   is the call   clamp(u_next)
        u[0] = 0.0
        return u

NumPy returns the very array passed in, so the assignment rebinds nothing: it is no rebinding of
a written array for the loop rules, and the rewrite emits it as the expression statement. Exact by
construction, and strictly conservative (any doubt: no fact): every `return` of the function
(not of a nested def) is `return p` for the same positional-or-keyword parameter p, the body ends
with that `return`, nothing anywhere in the function binds the name p (assignment, `op=`, loop,
`with`/`except`/import target, walrus, `del`, `global`/`nonlocal`, a nested def), it neither
yields nor awaits, and it has no decorator and is not async.
"""

from __future__ import annotations

import libcst as cst

from .effects import call_params


def returned_param(func: cst.FunctionDef) -> str | None:
    """The parameter `func` returns as itself on every path, or None."""
    if func.decorators or func.asynchronous is not None or not _ends_with_return(func.body):
        return None
    scan = _ReturnsAndBindings(func)
    func.body.visit(scan)
    if scan.other or len(scan.returned) != 1:
        return None
    (p,) = scan.returned
    positional = {x.name.value for x in func.params.params}
    return p if p in positional and p not in scan.bound else None


def identity_binds(call_assigns, effects, module_functions, local_names) -> frozenset:
    """The `x = f(args)` statements (single Name target, a direct call of a module function) that
    pass exactly the Name `x` to the parameter f returns as itself."""
    found = set()
    for node in call_assigns:
        x, call = node.targets[0].target.value, node.value
        func = call.func
        if not (isinstance(func, cst.Name) and func.value in module_functions and func.value not in local_names):
            continue
        eff = effects.get(func.value)
        if eff is None or eff.returns_param is None or any(a.star for a in call.args):
            continue
        if any(p == eff.returns_param and isinstance(a.value, cst.Name) and a.value.value == x
               for a, p in call_params(call.args, eff.params)):
            found.add(node)
    return frozenset(found)


def _ends_with_return(body: cst.BaseSuite) -> bool:
    """The last top-level statement is a `return` (which cannot be fallen past)."""
    if isinstance(body, cst.SimpleStatementSuite):
        small = body.body
    else:
        last = body.body[-1] if body.body else None
        small = last.body if isinstance(last, cst.SimpleStatementLine) else []
    return bool(small) and isinstance(small[-1], cst.Return)


class _ReturnsAndBindings(cst.CSTVisitor):
    """The names the function's own `return`s give (None for anything but a bare name), every
    name bound anywhere inside it (nested scopes included), and whether it yields or awaits."""

    def __init__(self, func: cst.FunctionDef):
        self.func = func
        self.depth = 0
        self.returned: set[str | None] = set()
        self.bound: set[str] = set()
        self.other = False

    def _bind(self, target) -> None:
        if isinstance(target, cst.Name):
            self.bound.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._bind(e.value)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.bound.add(node.name.value)
        self.depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_Return(self, node: cst.Return) -> None:
        if self.depth == 0:
            self.returned.add(node.value.value if isinstance(node.value, cst.Name) else None)

    def visit_Yield(self, node: cst.Yield) -> None:
        self.other = True

    def visit_Await(self, node: cst.Await) -> None:
        self.other = True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)  # `p += v` rebinds p when p holds a scalar

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:  # with, except, import ... as
        self._bind(node.name)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is None:
            self.bound.add(node.evaluated_name.split(".")[0])

    def visit_Del(self, node: cst.Del) -> None:
        self._bind(node.target)

    def visit_NameItem(self, node: cst.NameItem) -> None:  # global, nonlocal
        self.bound.add(node.name.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.bound.add(node.name.value)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self.bound.add(node.name.value)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self.bound.add(node.name.value)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self.bound.add(node.rest.value)
