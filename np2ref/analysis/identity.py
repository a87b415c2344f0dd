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

Two wider forms (`returned_items`), which the rewrite checks when traced (`npr_returned`):
- tuple returns, item by item: `return e, m, A` on every path, A the same parameter each time,
  makes `e, m, A = run(A, k)` bind e and m only (`pos, vel = boundary(pos, vel)` binds nothing);
- a parameter that is `op=`'d (`M *= f; return M`): the very array when an array is passed
  (NumPy writes it in place), a new object when a number is (the `op=` rebinds it). Only where
  it matters (a loop, a tuple) and the caller's name is no number by its use (aliases.py); the
  rewrite passes the caller's Ref, and npr_returned refuses when traced if the item returned is
  not that Ref (NPR203), so a number never loses its rebinding.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from .effects import call_params
from .nodes import run_visitor


@dataclasses.dataclass(frozen=True)
class ReturnedItems:
    """What every path of a function returns, item by item."""

    items: tuple[str | None, ...]  # per item, the parameter returned as itself (None: another value)
    unpacked: bool                 # the returns are tuple displays of len(items) (else one value)
    checked: bool                  # some such parameter is `op=`'d: the identity holds for an array


def _scanned(func: cst.FunctionDef) -> _ReturnsAndBindings | None:
    """The function's returns and bindings, where it may return a parameter as itself at all."""
    if func.decorators or func.asynchronous is not None or not _ends_with_return(func.body):
        return None
    scan = _ReturnsAndBindings(func)
    run_visitor(func.body, scan)
    return None if scan.other or not scan.values else scan


def returned_items(func: cst.FunctionDef) -> ReturnedItems | None:
    """The parameters `func` returns as themselves, item by item (see the module docstring)."""
    scan = _scanned(func)
    if scan is None:
        return None
    shapes = {_items(v) for v in scan.values}
    if len(shapes) != 1:
        return None
    (shape,) = shapes
    if shape is None:
        return None
    unpacked, items = shape
    positional = {x.name.value for x in func.params.params}
    kept = tuple(p if p in positional and p not in scan.bound else None for p in items)
    named = [p for p in kept if p is not None]
    if not named or len(set(named)) != len(named):
        return None
    return ReturnedItems(kept, unpacked, any(p in scan.augmented for p in named))


def _items(value) -> tuple[bool, tuple[str | None, ...]] | None:
    """(unpacked, the bare name of each item or None) for one `return value`; None for a
    starred tuple (its length is not the display's)."""
    if isinstance(value, cst.Name):
        return False, (value.value,)
    if isinstance(value, cst.Tuple) and value.elements:
        if any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        return True, tuple(e.value.value if isinstance(e.value, cst.Name) else None for e in value.elements)
    return False, (None,)


def returned_param(func: cst.FunctionDef) -> str | None:
    """The parameter `func` returns as itself on every path (no `op=` on it), or None."""
    return param_of(returned_items(func))


def returned_through(func: cst.FunctionDef, callees: dict) -> ReturnedItems | None:
    """The parameter p `func` returns as itself through a helper of its module: every `return`
    is `return p` or `return g(..., p, ...)`, g (callees: name -> (its parameters, its
    ReturnedItems or None)) given p, as a bare name, for the one parameter it returns; p bound
    nowhere in func, no `op=` on it (`in_place_lap(u): return laplacian(u, u)`). Checked when
    some g's is (`g(p): p *= 2; return p`: p itself when an array is passed)."""
    scan = _scanned(func)
    if scan is None:
        return None
    params = {x.name.value for x in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)}
    found = {_passed_through(v, callees, scan.bound | params) for v in scan.values}
    names = {p for p, _ in found if p is not None} if None not in found else set()
    if len(names) != 1:
        return None
    (p,) = names
    if p not in {x.name.value for x in func.params.params} or p in scan.bound | scan.augmented:
        return None
    return ReturnedItems((p,), False, any(checked for _, checked in found))


def _passed_through(value, callees: dict, local: set[str]) -> tuple[str, bool] | None:
    """The bare name `return value` gives back as itself, and whether that is checked: the name,
    or the one a callee (a module function: no local name) returns."""
    if isinstance(value, cst.Name):
        return value.value, False
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)) or value.func.value in local:
        return None
    params, returned = callees.get(value.func.value, ((), None))
    if returned is None or returned.unpacked or returned.items[0] is None or any(a.star for a in value.args):
        return None
    passed = [a.value for a, p in call_params(value.args, params) if p == returned.items[0]]
    return (passed[0].value, returned.checked) if len(passed) == 1 and isinstance(passed[0], cst.Name) else None


def returns_through(facts, value: cst.BaseExpression) -> bool:
    """Whether `value` (a helper's call) is returned by a function (aliases.FunctionFacts) that
    returns a parameter as itself: `return laplacian(u, u)` gives u's own Ref, as `return u` does
    (returned_through), not a load of it."""
    if facts.returned is None or facts.returned.unpacked or facts.returned.items[0] is None:
        return False
    scan = _ReturnsAndBindings(facts.node)
    run_visitor(facts.node.body, scan)
    return any(v is value for v in scan.values)


def param_of(returned: ReturnedItems | None) -> str | None:
    """returned_items' answer as returned_param's: the one parameter returned unpacked, unchecked."""
    if returned is None or returned.unpacked or returned.checked:
        return None
    return returned.items[0]


def identity_binds(call_assigns, effects, module_functions, local_names) -> dict:
    """The `x = f(args)` and `a, x = f(args)` statements (Name targets, a direct call of a module
    function) that pass to each parameter f returns as itself the Name its item binds, the other
    items sharing no argument's storage -> per target, the name it keeps (None: bound anew)."""
    found = {}
    for node in call_assigns:
        call, func = node.value, node.value.func
        if not (isinstance(func, cst.Name) and func.value in module_functions and func.value not in local_names):
            continue
        eff = effects.get(func.value)
        returned = None if eff is None else eff.returned
        if returned is None or any(a.star for a in call.args):
            continue
        target = node.targets[0].target
        names = [target.value] if isinstance(target, cst.Name) else \
            [e.value.value if isinstance(e.value, cst.Name) else None for e in target.elements]
        if (len(names) > 1) != returned.unpacked or len(names) != len(returned.items) \
                or None in names or len(set(names)) != len(names):
            continue
        passed = {p: a.value.value for a, p in call_params(call.args, eff.params) if isinstance(a.value, cst.Name)}
        kept = tuple(n if p is not None else None for n, p in zip(names, returned.items))
        if all(p is None or passed.get(p) == n for n, p in zip(names, returned.items)) and \
                not any(p is None and eff.item_alias[i] for i, p in enumerate(returned.items)):
            found[node] = kept
    return found


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
        self.values: list[cst.BaseExpression | None] = []
        self.bound: set[str] = set()
        self.augmented: set[str] = set()  # bound by `op=` only (in place on an array)
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
            self.values.append(node.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        self.other = True

    def visit_Await(self, node: cst.Await) -> None:
        self.other = True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):  # `p += v` rebinds p when p holds a scalar
            self.augmented.add(node.target.value)

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
