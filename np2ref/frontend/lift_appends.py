"""A lifted loop's history lists: a script's `for` loop that appends to module-level (or a host
function's) lists once a trip is lifted whole, with each list made anew inside the lifted
function and the caller's list extended with what it returns.

    history = []                                 def _main_loop_3(u, steps):
    for step in range(steps):                        history = []
        u[1:-1] += ...                    ->         for step in range(steps):
        history.append(u.copy())                         u[1:-1] += ...
                                                         history.append(u.copy())
                                                     return history
                                                 _npr_new_history = _main_loop_3(u, steps)
                                                 history.extend(_npr_new_history)

Exact: the loop never reads the list (its one use in the loop is the append, checked here), so
NumPy's list holds the same items in the same order once the loop is done; the lifted function's
list is the append-only list rules/loop_appends.py stacks (a lax loop). Only values that are
arrays or numbers by their form are taken (`u.copy()`, `float(...)`, `np.sum(...)`, `e.max()`,
arithmetic with a float literal): a script's loop whose appends a compiled loop could not stack
would be traced once per trip; such a loop keeps its steps (frontend/host_steps.py), as do lists
read in the loop (`energy[-1]` in a print).
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from ..analysis.nodes import walk

STACKED_METHODS = frozenset({"copy", "sum", "mean", "max", "min", "std", "var", "prod", "dot", "astype",
                             "ravel", "flatten", "item"})


def appended_lists(loop, names) -> tuple[str, ...]:
    """`names` (the containers the loop reads) when each is appended to once a trip at the top
    level of a `for` loop's body with a value of array form, and not otherwise used in it; else ()."""
    if not isinstance(loop, cst.For) or loop.orelse is not None or not names:
        return ()
    found: dict[str, int] = {}
    for stmt in loop.body.body:
        call = _append_call(stmt)
        if call is not None and call.func.value.value in names and _stackable(call.args[0].value):
            found[call.func.value.value] = found.get(call.func.value.value, 0) + 1
    uses = [n.value for n in walk(loop.body) if isinstance(n, cst.Name)]
    if set(found) != set(names) or any(found[n] != 1 or uses.count(n) != 1 for n in names):
        return ()
    return tuple(sorted(names))


def _append_call(stmt):
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)):
        return None
    call = stmt.body[0].value
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
            and isinstance(call.func.value, cst.Name) and len(call.args) == 1 and call.args[0].keyword is None \
            and not call.args[0].star:
        return call
    return None


def _stackable(expr) -> bool:
    """An expression whose value is an array or a number by its form."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return _stackable(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        sides = (expr.left, expr.right)
        return any(_stackable(s) for s in sides) and all(_stackable(s) or isinstance(s, (cst.Name, cst.Attribute))
                                                         for s in sides)
    if isinstance(expr, cst.Tuple):
        return all(_stackable(e.value) for e in expr.elements)
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    if isinstance(func, cst.Name):
        return func.value in ("float", "int")
    if isinstance(func, cst.Attribute):
        root = func.value
        while isinstance(root, (cst.Attribute, cst.Subscript)):
            root = root.value
        return func.attr.value in STACKED_METHODS or (isinstance(root, cst.Name) and root.value in ("np", "numpy"))
    return False


def held(lift, loop, containers):
    """The lift of a loop that reads `containers`: lifted whole with `appends` when it only
    appends to them, else `holds` (its array work as steps)."""
    if not containers:
        return lift
    appends = appended_lists(loop, containers)
    return dataclasses.replace(lift, appends=appends) if appends else dataclasses.replace(lift, holds=containers)


def fallback(lift):
    """An appends lift the pipeline could not compile whole: its steps, as before."""
    return dataclasses.replace(lift, holds=lift.appends, appends=())


def define_lines(lift, pad: str) -> list[str]:
    """The lines that make each list anew at the top of the lifted function."""
    return [f"{pad}    {name} = []\n" for name in lift.appends]


def returned(lift) -> tuple[str, ...]:
    return tuple(lift.returns) + tuple(lift.appends)


def targets(lift) -> tuple[str, ...]:
    return tuple(lift.returns) + tuple(f"_npr_new_{name}" for name in lift.appends)


def extend_lines(lift) -> list[str]:
    """After the call: the caller's lists extended with the lifted function's."""
    return [f"{lift.indent}{name}.extend(_npr_new_{name})\n" for name in lift.appends]


def params(lift) -> tuple[str, ...]:
    return tuple(p for p in lift.params if p not in lift.appends)
