"""Names that only ever hold a Python number, never an ndarray.

    best, bi, bj = 0, 0, 0            # literals
    for i in range(1, n + 1):         # range's items
        ...  bi, bj = i, j            # names that hold numbers
    i, j = bi, bj
    while i > 0 and H[i, j] > 0:
        i -= 1                        # a number op= a number: rebinds, never writes in place

`name op= v` writes an ndarray in place, so analysis/aliases.py counts it as a write to every
buffer the name may share; the number literals `0` stand for buffers there (`t = 0.0; t += row`
makes t an array that a later `op=` writes). A name every binding of which is a number
expression (a greatest fixed point over the function's bindings) never holds an array: its
`op=` is no write. Parameters are never such names (the caller may pass a 0-d array), nor a name
bound where the bindings do not show it (`:=`, `as`, `global`, `import`, a nested `def`).
"""

from __future__ import annotations

import libcst as cst
from .nodes import run_visitor

_NUMBER_CALLS = frozenset({"int", "float", "len", "bool", "complex", "ord"})
_NUMBER_ATTRIBUTES = frozenset({"size", "ndim"})
_OF_NUMBERS = frozenset({"min", "max", "abs"})  # a Python number when every argument is one


class _Hidden(cst.CSTVisitor):
    """Names bound by statements the collector does not record as bindings."""

    def __init__(self):
        self.names: set[str] = set()

    def _name(self, node) -> None:
        if isinstance(node, cst.Name):
            self.names.add(node.value)

    def visit_NamedExpr(self, node) -> None:
        self._name(node.target)

    def visit_AsName(self, node) -> None:
        self._name(node.name)
        for n in _names_in(node.name):
            self.names.add(n)

    def visit_Global(self, node) -> None:
        self.names.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node) -> None:
        self.names.update(n.name.value for n in node.names)

    def visit_ImportAlias(self, node) -> None:
        self.names.update(_names_in(node.asname.name if node.asname else node.name))

    def visit_FunctionDef(self, node) -> None:
        self.names.add(node.name.value)

    def visit_ClassDef(self, node) -> None:
        self.names.add(node.name.value)

    def visit_Del(self, node) -> None:
        self.names.update(_names_in(node.target))


def _names_in(node) -> set[str]:
    found: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n) -> None:
            found.add(n.value)
    run_visitor(node, V())
    return found


def _number(expr, names: frozenset[str], shadowed: frozenset[str]) -> bool:
    """An expression whose value is a Python number whenever it has one."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in names
    if isinstance(expr, cst.UnaryOperation):
        return not isinstance(expr.operator, cst.Not) and _number(expr.expression, names, shadowed)
    if isinstance(expr, cst.BinaryOperation):
        return not isinstance(expr.operator, cst.MatrixMultiply) and _number(expr.left, names, shadowed) \
            and _number(expr.right, names, shadowed)
    if isinstance(expr, cst.IfExp):
        return _number(expr.body, names, shadowed) and _number(expr.orelse, names, shadowed)
    if isinstance(expr, cst.Call):  # int(a[0]), len(a): a Python number (or the call raises)
        if isinstance(expr.func, cst.Name) and expr.func.value in _OF_NUMBERS and expr.func.value not in shadowed:
            return bool(expr.args) and all(a.keyword is None and not a.star and _number(a.value, names, shadowed)
                                           for a in expr.args)  # min(dt * 1.1, DT_MAX) of numbers
        return isinstance(expr.func, cst.Name) and expr.func.value in _NUMBER_CALLS and expr.func.value not in shadowed
    if isinstance(expr, cst.Attribute):  # a.size, a.ndim
        return expr.attr.value in _NUMBER_ATTRIBUTES
    if isinstance(expr, cst.Subscript):  # a.shape[0], and a `range` loop's item (collect._row)
        base = expr.value
        if isinstance(base, cst.Attribute) and base.attr.value == "shape":
            return all(isinstance(e.slice, cst.Index) for e in expr.slice)
        return isinstance(base, cst.Call) and isinstance(base.func, cst.Name) and base.func.value == "range" \
            and "range" not in shadowed
    return False


def python_number_names(func: cst.FunctionDef, bindings, aug_names, params, shadowed,
                        constants=frozenset()) -> frozenset[str]:
    """The names of `func` that only ever hold Python numbers (see the module docstring).
    bindings: (target Name, value) pairs, value None for `op=` and enumerate's index; aug_names:
    the (target Name, AugAssign) pairs; shadowed: local and module names that hide a builtin;
    constants: module-level names bound once to a number literal and never changed (`A0 = 0.1`)."""
    hidden = _Hidden()
    for stmt in func.body.body:
        run_visitor(stmt, hidden)
    augs = {id(name): node for name, node in aug_names}
    values: dict[str, list] = {}
    for target, value in bindings:
        if not isinstance(target, cst.Name):
            continue
        if value is None:
            aug = augs.get(id(target))
            value = aug.value if aug is not None and not isinstance(aug.operator, cst.MatrixMultiplyAssign) \
                else (cst.Integer("0") if aug is None else cst.Name("@"))  # enumerate's index: an int
        values.setdefault(target.value, []).append(value)
    names = frozenset(n for n in values if n not in params and n not in hidden.names)
    shadowed = frozenset(shadowed)
    constants = frozenset(constants) - set(values) - set(params) - hidden.names  # (not a local of func)
    while True:
        kept = frozenset(n for n in names if all(_number(v, names | constants, shadowed) for v in values[n]))
        if kept == names:
            return names
        names = kept
