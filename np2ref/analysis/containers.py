"""Python containers a function changes in place: `hist.append(x)` and the other list, dict and
set methods that change their receiver, and a call of a module function that changes the
container passed to it (`record(hist, x)` where record() appends to its parameter).

Why: a compiled loop or branch traces its body once. A change to a Python container made there
happens once, with traced values, instead of once per iteration or only when the branch is
taken; NumPy's list would come back empty, short, or holding tracers. So rewrite/rules/loops.py
keeps a loop that changes a container visible outside one iteration a Python loop (exact), and a
branch on array data that changes one is refused with NPR034 (the count depends on data).

`d[k] = v` on a name bound only to dicts is listed (an insertion); other item and attribute
stores (`obj.x = v`) are not: the alias analysis refuses them (NPR207, NPR205), and `del` is
fenced (NPR016).
"""

from __future__ import annotations

import dataclasses

import libcst as cst
from .nodes import run_visitor

MUTATING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update",
                              "setdefault", "popitem", "add", "discard"})


@dataclasses.dataclass(frozen=True)
class Change:
    name: str           # the local name whose container is changed (the root of `a.b.append`)
    what: str           # "appends to `hist`", for notes and messages
    node: cst.CSTNode   # the call


def _root(expr: cst.BaseExpression) -> str | None:
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        expr = expr.value
    return expr.value if isinstance(expr, cst.Name) else None


_DISPLAYS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)


def container_names(facts) -> frozenset[str]:
    """Names some binding of which is a list, dict or set display or `list(...)`-style call."""
    return frozenset(t.value for t, v in facts.bindings if isinstance(t, cst.Name) and (
        isinstance(v, _DISPLAYS) or (isinstance(v, cst.Call) and isinstance(v.func, cst.Name)
                                     and v.func.value in ("list", "dict", "set") and v.func.value not in facts.roots)))


def sequence_names(bindings, params) -> frozenset[str]:
    """Local names every binding of which is a list or tuple display or a list comprehension
    (`sizes = [n, 3]`): a Python sequence wherever the name is read."""
    names: dict[str, bool] = {}
    for t, v in bindings:
        if isinstance(t, cst.Name):
            names[t.value] = names.get(t.value, True) and isinstance(v, (cst.List, cst.Tuple, cst.ListComp))
    return frozenset(n for n, ok in names.items() if ok and n not in params)


def dict_names(bindings, params) -> frozenset[str]:
    """Local names every binding of which is a dict (`{}`, `{k: v}`, a dict comprehension,
    `dict()`): `d[k] = v` on one is an insertion into a Python dict, not an array store."""
    names: dict[str, bool] = {}
    for t, v in bindings:
        if isinstance(t, cst.Name):
            names[t.value] = names.get(t.value, True) and (isinstance(v, (cst.Dict, cst.DictComp)) or (
                isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value == "dict"
                and not v.args))
    return frozenset(n for n, ok in names.items() if ok and n not in params)


class _Changes(cst.CSTVisitor):
    def __init__(self, facts, all_facts, seen):
        self.facts, self.all, self.seen = facts, all_facts, seen
        self.local = set(facts.roots) | set(facts.params)
        self.containers = container_names(facts)
        self.found: list[Change] = []
        self.dicts: frozenset[str] | None = None  # dict_names, made at the first assignment

    def visit_Assign(self, node: cst.Assign) -> None:  # `out[k] = v` on a dict: an insertion
        if self.dicts is None:  # (once per visit, not once per assignment: issue 43)
            self.dicts = dict_names(self.facts.bindings, self.facts.params)
        dicts = self.dicts
        for t in node.targets:
            if isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name) \
                    and t.target.value.value in dicts:
                name = t.target.value.value
                self.found.append(Change(name, f"stores into the Python dict `{name}`", node))

    def visit_Name(self, node: cst.Name) -> None:  # `acc = acc + [x]`: a container rebound
        if node.value in self.containers and node in self.facts.store_names:
            self.found.append(Change(node.value, f"rebinds the Python container `{node.value}`", node))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS:
            name = _root(func.value)
            if name in self.local:
                self.found.append(Change(name, f"calls `{name}.{func.attr.value}()`", node))
            return
        if isinstance(func, cst.Name) and func.value in self.all and func.value not in self.local:
            for position in changed_params(self.all[func.value], self.all, self.seen):
                args = [a for a in node.args if a.keyword is None and not a.star]
                name = _root(args[position].value) if position < len(args) else None
                if name in self.local:
                    self.found.append(Change(name, f"passes `{name}` to {func.value}(), which changes it", node))


def changes(node: cst.CSTNode, facts, all_facts: dict, seen: frozenset = frozenset()) -> list[Change]:
    """The container changes made in `node` (a loop, a branch, a body) of the function `facts`."""
    v = _Changes(facts, all_facts, seen | {facts.name})
    run_visitor(node, v)
    return v.found


def changed_param_names(facts, all_facts: dict) -> tuple[str, ...]:
    """The parameters `facts`' function changes as containers (`hist.append(x)`, `d.update(...)`,
    or through a module function that does): NumPy's caller sees the change in its own list,
    dict or set, which a jitted call cannot make; npr_jit's `changed=` refuses such an argument
    (NPR207). A parameter written as an array is left out: its own check refuses containers."""
    positions = changed_params(facts, all_facts)
    return tuple(p for i, p in enumerate(facts.params) if i in positions and p not in facts.mutated_params)


def changed_params(facts, all_facts: dict, seen: frozenset = frozenset()) -> list[int]:
    """Positions of the parameters of a module function that it changes as containers."""
    if facts.name in seen:
        return []
    names = {c.name for c in changes(facts.node.body, facts, all_facts, seen)}
    # `h = hist` then `h.append(x)`: the parameter's container is changed through the name
    names |= {v.value for t, v in facts.bindings if isinstance(t, cst.Name) and t.value in names
              and isinstance(v, cst.Name)}
    return [i for i, p in enumerate(facts.params) if p in names]


class _LoopBuild(cst.CSTVisitor):
    """`found`: the first container change in a loop; `carried`: a loop rebinds a name from its
    own value (`S, I = S - dS, I + dS`, as `x op= v` does: a time loop, not a builder)."""

    def __init__(self):
        self.depth = 0
        self.found: cst.Call | None = None
        self.carried = False

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.depth and not self.carried:
            bound = {n.value for t in node.targets for n in _walk_names(t.target)}
            self.carried = any(n.value in bound for n in _walk_names(node.value))

    def visit_For(self, node: cst.For) -> None:
        self.depth += not _short_literal_loop(node)

    def leave_For(self, node: cst.For) -> None:
        self.depth -= not _short_literal_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self.depth += 1

    def leave_While(self, node: cst.While) -> None:
        self.depth -= 1

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.depth and self.found is None and isinstance(func, cst.Attribute) \
                and func.attr.value in MUTATING_METHODS and _root(func.value) is not None:
            self.found = node


def _walk_names(node):
    """The names in `node` (targets of a tuple unpacking, the reads of a value)."""
    found = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.append(n)

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            run_visitor(n.value, self)  # `x.attr`: x only
            return False
    run_visitor(node, Names())
    return found


def _short_literal_loop(node: cst.For) -> bool:
    """`for q in range(9)` or over a literal tuple: unrolled cheaply, by design."""
    it = node.iter
    if isinstance(it, (cst.Tuple, cst.List)):
        return len(it.elements) <= 16
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" \
            and 1 <= len(it.args) <= 3 and all(isinstance(a.value, cst.Integer) for a in it.args):
        return len(range(*(int(a.value.value) for a in it.args))) <= 16
    return False


def builds_in_loop(func: cst.FunctionDef) -> cst.Call | None:
    """A call that changes a Python container (`rows.append(...)`) inside a loop that is not a
    short literal one: with no array written, such a function is a builder (a matrix assembled
    in Python lists) that NumPy runs faster than a trace one copy of its body per iteration
    could compile (analysis/module.py keeps it host code)."""
    v = _LoopBuild()
    run_visitor(func.body, v)
    return None if v.carried else v.found
