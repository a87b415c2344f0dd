"""Calls of view helpers that the caller writes through, inlined before analysis.

What: a module function whose whole body is `return a[<basic index>]` of its parameter `a`
(`def interior(u): return u[1:-1, 1:-1]`, `def row_of(u, i): return u[i]`) returns a view of its
argument; where the caller writes through that view, `interior(u)[...] = v`, `interior(u) -= v`
in a function that writes (`inner = interior(u)` then `inner *= 2`), `out=interior(u)`,
`interior(u).fill(0.0)`, `np.copyto(interior(u), v)`, `np.add.at(interior(u), i, 1)`, an argument
of a module function (which may write it), the call is replaced by the
index it stands for: `u[1:-1, 1:-1][...] = v`, `inner = u[1:-1, 1:-1]`.
Why: the alias analysis follows views made by indexing, not views a helper returns: the write
was refused (NPR205 through the call, NPR203 through the name), though scripts organise their
boundary code this way.
Exact: the helper does nothing but index its argument, so its result is the same view of the
same array; the arguments are names or numbers, so evaluating them where the index reads them
is evaluating them once, as the call did. A helper rebound anywhere in the module, with
defaults, decorators or any other statement, is left alone. Other calls (reads) keep the
user's text. The new nodes map to the call (`origin`), so diagnostics keep the user's positions.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import effects as fx
from ..analysis.names import ImportMap
from ..analysis.nodes import nodes_of
from .outs import Normalizer



def normalize_module(module: cst.Module) -> tuple[cst.Module, dict]:
    """(module, origin): the module with written-through view helper calls inlined (the same
    module object when there are none)."""
    helpers = _view_helpers(module)
    if not helpers:
        return module, {}
    functions = {f.name.value for f in module.body if isinstance(f, cst.FunctionDef)}
    fix = _Inline(helpers, ImportMap.of(module), functions)
    new = module.visit(fix)
    return (new, fix.origin) if fix.changed else (module, {})


def _view_helpers(module: cst.Module) -> dict[str, cst.FunctionDef]:
    """The module functions whose body is `return p[<basic index>]` of a parameter `p`, by name,
    bound nowhere else in the module."""
    found = {}
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and _returned_view(stmt) is not None:
            found[stmt.name.value] = stmt
    if not found:
        return {}
    defs = [f.name.value for f in nodes_of(module, cst.FunctionDef)]
    bound = {n.value for node in nodes_of(module, cst.AssignTarget) for n in _names(node.target)}
    bound |= {p.name.value for p in nodes_of(module, cst.Param)}
    bound |= {n.value for node in nodes_of(module, cst.For) for n in _names(node.target)}
    bound |= {a.evaluated_alias or a.evaluated_name for node in nodes_of(module, (cst.Import, cst.ImportFrom))
              if isinstance(node.names, (list, tuple)) for a in node.names}
    return {name: f for name, f in found.items() if defs.count(name) == 1 and name not in bound}


def _names(target) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _names(e.value)]
    return []


def _returned_view(f: cst.FunctionDef) -> cst.Subscript | None:
    """`p[...]` of `def f(p, ...): return p[...]` (a docstring allowed), its index basic and made
    of numbers and parameters only; None otherwise."""
    params = f.params
    if f.decorators or f.asynchronous or params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params \
            or params.star_kwarg is not None or params.posonly_params or any(p.default for p in params.params):
        return None
    body = list(f.body.body) if isinstance(f.body, cst.IndentedBlock) else []
    if body and _docstring(body[0]):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        return None
    ret = body[0].body[0]
    names = {p.name.value for p in params.params}
    if not isinstance(ret, cst.Return) or not isinstance(ret.value, cst.Subscript):
        return None
    view = ret.value
    if not isinstance(view.value, cst.Name) or view.value.value not in names:
        return None
    return view if all(_basic(e.slice, names) for e in view.slice) else None


def _docstring(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr) \
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _basic(part, names: set[str]) -> bool:
    """An index element of numbers and parameters: a slice, `None`, `...`, or integer arithmetic
    of these. (An array parameter indexes by copy, not view; the inlined index is the same
    expression either way, which the analysis then reads as it is.)"""
    if isinstance(part, cst.Slice):
        return all(b is None or _integer(b, names) for b in (part.lower, part.upper, part.step))
    value = part.value
    if isinstance(value, cst.Name) and value.value == "None" or isinstance(value, cst.Ellipsis):
        return True
    return _integer(value, names)


def _integer(expr, names: set[str]) -> bool:
    """Numbers and parameters under + - * // %."""
    if isinstance(expr, cst.Integer):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _integer(expr.expression, names)
    if isinstance(expr, cst.Name):
        return expr.value in names
    if isinstance(expr, cst.BinaryOperation) and isinstance(
            expr.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)):
        return _integer(expr.left, names) and _integer(expr.right, names)
    return False


class _Inline(Normalizer):
    """Inlines the helper calls at the base of a write target or handed to a call that may write
    them, and `name = helper(...)` in a function that may write an array (NPR203 refuses the
    name's view where either it or its base is written)."""

    def __init__(self, helpers: dict[str, cst.FunctionDef], imports: ImportMap, functions: set[str]):
        super().__init__(imports)
        self.helpers, self.functions = helpers, functions
        self.written: list[bool] = []  # per enclosing function: whether it may write an array
        self.targets: set[cst.Call] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.written.append(_writes(node, self.functions))

    def leave_FunctionDef(self, original, updated):
        self.written.pop()
        return updated

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._mark_base(t.target)
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and self.written \
                and self.written[-1]:
            self._mark(node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mark_base(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        for a in node.args:  # np.add(a, b, out=interior(u))
            if a.keyword is not None and a.keyword.value == "out":
                self._mark(a.value)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in fx.INPLACE_METHODS | fx.REFUSED_INPLACE_METHODS:
            self._mark(func.value)  # interior(u).fill(0.0)
        qual = self.imports.qualify_numpy(func)
        written = qual is not None and (qual in fx.INPLACE_FUNCTIONS or qual.endswith(".at"))
        if node.args and written:  # np.copyto(interior(u), v), np.add.at(interior(u), i, 1)
            self._mark(node.args[0].value)
        if isinstance(func, cst.Name) and func.value in self.functions:  # a helper that may write it
            for a in node.args:
                self._mark(a.value)

    def _mark_base(self, target) -> None:
        if not isinstance(target, cst.Subscript):
            return
        while isinstance(target, cst.Subscript):
            target = target.value
        self._mark(target)

    def _mark(self, expr) -> None:
        if isinstance(expr, cst.Call) and self._inlined(expr) is not None:
            self.targets.add(expr)

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if original not in self.targets:
            return updated
        new = self._inlined(original).deep_clone()
        for node in nodes_of(new, cst.CSTNode):
            self.origin[node] = original
        self.changed = True
        return new

    def _inlined(self, call: cst.Call) -> cst.Subscript | None:
        """The index the call stands for, its parameters replaced by the call's arguments; None
        where the call is not one to inline (keywords, stars, arguments other than names and
        numbers)."""
        if not isinstance(call.func, cst.Name) or call.func.value not in self.helpers:
            return None
        f = self.helpers[call.func.value]
        params = [p.name.value for p in f.params.params]
        if len(call.args) != len(params) or any(a.keyword is not None or a.star for a in call.args) \
                or not all(_plain(a.value) for a in call.args):
            return None
        given = {p: a.value for p, a in zip(params, call.args)}
        view = _returned_view(f)
        if not isinstance(given[view.value.value], cst.Name):
            return None
        return view.visit(_Substitute(given))


def _plain(expr) -> bool:
    """A name or a (signed) integer: evaluated where the index reads it, as once by the call."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, (cst.Name, cst.Integer))


class _Substitute(cst.CSTTransformer):
    def __init__(self, given: dict):
        super().__init__()
        self.given = given

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        return self.given.get(original.value, updated)


def _writes(f: cst.FunctionDef, functions: set[str]) -> bool:
    """Whether a function may write an array: a subscript or augmented target, an `out=`
    argument, an in-place method, a call of a module function (which may write its argument)."""
    for node in nodes_of(f, (cst.AssignTarget, cst.AugAssign)):
        if isinstance(node, cst.AugAssign) or isinstance(node.target, (cst.Subscript, cst.Attribute)):
            return True
    for call in nodes_of(f, cst.Call):
        func = call.func
        if any(a.keyword is not None and a.keyword.value == "out" for a in call.args) \
                or isinstance(func, cst.Attribute) and func.attr.value in fx.INPLACE_METHODS \
                or isinstance(func, cst.Attribute) and func.attr.value in ("copyto", "putmask", "place", "at") \
                or isinstance(func, cst.Name) and func.value in functions:
            return True
    return False
