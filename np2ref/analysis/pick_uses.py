"""Where the value of a builtin `max(...)`/`min(...)` goes, and so whether the TYPE of the operand
Python picks can show (rt/truth.py npr_max's `use=`).

Python's max()/min() return one operand: `max(0, H[i - 1, j] + gap)` is the int 0 or NumPy's
float64 as the data decides, where the translation folds jnp.where and promotes both. The type
cannot show where every use of the result only reads its value:
- stored into an array element or slice (`H[i, j] = max(0, ...)`: the store casts to H's dtype),
- compared (`if max(a, b) > t`), given to float()/int()/bool(),
- given to another max()/min() whose result is used so, or bound to a name used only so.
That is 'value'. An operand of arithmetic (`x * min(x[0], 2.5)`, `s += max(...)`) is 'arith':
its result dtype follows the picked operand's kind and weakness. Anything else (returned,
printed, put in a list, passed to a function) is 'typed'. rt/truth.py refuses, by use, the
operand mixes whose result could differ (NPR128).

    value_uses(func) -> {max/min Call: Use}; keywords(call, ctx): the emitted `use=`, `against=`
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import libcst as cst

from .nodes import run_visitor

_ORDER = {"value": 0, "typed": 1, "arith": 2}
_CASTS = frozenset({"float", "int", "bool"})
_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _is_pick(node) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("max", "min") \
        and len(node.args) > 1 and all(a.keyword is None and a.star == "" for a in node.args)


class _Find(cst.CSTVisitor):
    """Parents of the body's nodes (nested scopes left out: a use there is 'typed'), the picks,
    the names bound to a pick, and every read of a name."""
    layout_blind = True  # (nodes.run_visitor: whitespace and commas are not visited)

    def __init__(self):
        self.parent: dict[int, cst.CSTNode] = {}
        self.stack: list[cst.CSTNode] = []
        self.picks: list[cst.Call] = []
        self.reads: dict[str, list[cst.Name]] = {}
        self.nested_reads: set[str] = set()
        self.stores: set[int] = set()  # Names written (Assign/For/With targets, del)
        self.stored: dict[str, list[cst.Name]] = {}  # by name, AugAssign targets too
        self.deleted: set[str] = set()
        self.declared: set[str] = set()  # global / nonlocal
        self.depth = 0

    def on_visit(self, node) -> bool:
        if self.stack:
            self.parent[id(node)] = self.stack[-1]
        self.stack.append(node)
        if isinstance(node, _SCOPES):
            self.depth += 1
        if isinstance(node, (cst.AssignTarget, cst.For, cst.WithItem, cst.Del, cst.CompFor)):
            target = node.target if not isinstance(node, cst.WithItem) else getattr(node.asname, "name", None)
            self._mark_stores(target)
            if isinstance(node, cst.Del):  # (`del a, b`: a Tuple target)
                targets = node.target.elements if isinstance(node.target, (cst.Tuple, cst.List)) else ()
                self.deleted.update(t.value for t in (node.target, *(e.value for e in targets))
                                    if isinstance(t, cst.Name))
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            self.stored.setdefault(node.target.value, []).append(node.target)
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            self.declared.update(n.name.value for n in node.names)
        elif isinstance(node, cst.Name) and id(node) not in self.stores:
            if self.depth:
                self.nested_reads.add(node.value)
            else:
                self.reads.setdefault(node.value, []).append(node)
        elif _is_pick(node) and not self.depth:
            self.picks.append(node)
        return True

    def on_leave(self, node) -> None:
        self.stack.pop()
        if isinstance(node, _SCOPES):
            self.depth -= 1

    def _mark_stores(self, target) -> None:
        if isinstance(target, cst.Name):
            self.stores.add(id(target))
            self.stored.setdefault(target.value, []).append(target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._mark_stores(e.value)
        elif isinstance(target, cst.StarredElement):
            self._mark_stores(target.value)


class Use(NamedTuple):
    kind: str  # 'value', 'typed' or 'arith'
    bases: frozenset = frozenset()  # the bases of the array stores the value reaches
    against: tuple | None = ()  # arith: the other operands (Names, number literals); None: not known

    def worst(self, other: Use) -> Use:
        against = None if self.against is None or other.against is None else self.against + other.against
        return Use(max(self.kind, other.kind, key=_ORDER.__getitem__), self.bases | other.bases, against)


_TYPED = Use("typed")
_SIMPLE = (cst.Name, cst.Integer, cst.Float)
_PURE_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power, cst.Modulo)


def _pure(expr) -> bool:
    """Arithmetic of names and numbers (`cfl * dx`): evaluated again beside the pick it reads the
    same names, with no effect (its dtype alone is used)."""
    if isinstance(expr, _SIMPLE):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return isinstance(expr.operator, (cst.Minus, cst.Plus)) and _pure(expr.expression)
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _PURE_OPS) \
        and _pure(expr.left) and _pure(expr.right)


class _Uses:
    def __init__(self, found: _Find, params: frozenset):
        self.f = found
        self.params = params

    def of_expr(self, expr, seen: frozenset) -> Use:
        """Where an expression's value goes."""
        parent = self.f.parent.get(id(expr))
        if isinstance(parent, cst.Arg):
            call = self.f.parent.get(id(parent))
            if _is_pick(call):
                return self.of_expr(call, seen)
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in _CASTS \
                    and len(call.args) == 1 and parent.keyword is None and parent.star == "":
                return Use("value")
            return _TYPED
        if isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
            return Use("value")
        if isinstance(parent, cst.BinaryOperation):
            other = parent.right if parent.left is expr else parent.left
            return Use("arith", against=(other,) if _pure(other) else None)
        if isinstance(parent, cst.AugAssign):  # (`best += 1` reads best too; the sum is bound again)
            target = parent.target  # (`a[...] += m`: a's dtype is the element's, and the sum's store)
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                target = target.value
            return Use("arith", against=(target,) if parent.value is expr and isinstance(target, cst.Name) else None)
        if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Subscript):
                return Use("value", frozenset({target.value}))
            if isinstance(target, cst.Name):
                return self.of_name(target.value, seen, parent)
        return _TYPED

    def of_name(self, name: str, seen: frozenset, anchor: cst.Assign) -> Use:
        """The worst use of a name's reads (a cycle, `best = max(best, v)`, adds nothing). Arithmetic
        on the name keeps its other operands (`against`) where they are numbers, or names that hold
        at the pick what they hold at that read (_same_at)."""
        if name in seen:
            return Use("value")
        if name in self.f.nested_reads or name in self.f.declared:
            return _TYPED
        use = Use("value")
        for read in self.f.reads.get(name, ()):
            found = self.of_expr(read, seen | {name})
            if found.kind == "arith" and found.against:
                kept = tuple(e for e in found.against if isinstance(e, (cst.Integer, cst.Float))
                             or isinstance(e, cst.Name) and self._same_at(e.value, anchor, read))
                found = found._replace(against=kept if len(kept) == len(found.against) else None)
            use = use.worst(found)
        return use

    def _statement_in(self, node, suite):
        """The statement of `suite` that holds `node`, or None."""
        while node is not None:
            parent = self.f.parent.get(id(node))
            if parent is suite:
                return node
            node = parent
        return None

    def _bound_before(self, name: str, statement) -> bool:
        """A simple statement before `statement`, in its block or a block around it, binds `name`."""
        while (suite := self.f.parent.get(id(statement))) is not None:
            order = {id(s): i for i, s in enumerate(getattr(suite, "body", ()))}
            for store in self.f.stored.get(name, ()):
                there = self._statement_in(store, suite)
                if isinstance(there, cst.SimpleStatementLine) and order.get(id(there), 1 << 30) < order[id(statement)]:
                    return True
            statement = self.f.parent.get(id(suite))
        return False

    def _same_at(self, name: str, anchor: cst.Assign, read: cst.Name) -> bool:
        """`name` is bound where `anchor` picks (a parameter, read by the pick itself, or bound by a
        simple statement before it in its block; never deleted) and is not bound again before `read`:
        `read`'s statement follows the pick's, a single simple statement in the same block, and none
        between them binds it (that one may, as its own target: `t += dt`). Where a loop or a branch
        separates them, not known."""
        line = self.f.parent.get(id(anchor))
        suite = self.f.parent.get(id(line))
        if name in self.f.nested_reads or name in self.f.declared or name in self.f.deleted or suite is None \
                or not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
            return False
        there = self._statement_in(read, suite)
        order = {id(s): i for i, s in enumerate(getattr(suite, "body", ()))}
        bound = name in self.params or any(self._statement_in(r, anchor) for r in self.f.reads.get(name, ())) \
            or self._bound_before(name, line)
        if not bound:
            return False
        if not isinstance(there, cst.SimpleStatementLine) or len(there.body) != 1 or id(there) not in order:
            return False
        first, last = order[id(line)], order[id(there)]
        if last <= first:
            return False
        return not any(first < order.get(id(self._statement_in(store, suite)), -1) < last
                       for store in self.f.stored.get(name, ()))


@functools.lru_cache(maxsize=64)
def value_uses(func: cst.FunctionDef) -> dict[cst.Call, Use]:
    """Each builtin max()/min() call of several operands in `func`'s body (outside nested scopes)
    -> its Use."""
    found = _Find()
    run_visitor(func.body, found)
    params = frozenset(p.name.value for p in (*func.params.posonly_params, *func.params.params,
                                              *func.params.kwonly_params))
    uses = _Uses(found, params)
    return {call: uses.of_expr(call, frozenset()) for call in found.picks}


def keywords(call: cst.Call, ctx) -> dict[str, cst.BaseExpression]:
    """`use='value'` / `use='arith', against=(y8,)` for the emitted npr_max/npr_min (none where
    'typed'): 'value' only where the stores it reaches are stores into arrays (their bases store
    proxies), not a list's item."""
    use = value_uses(ctx.f.node).get(call, _TYPED)
    if use.kind == "typed" or use.kind == "value" and not use.bases <= ctx.m.store_bases:
        return {}
    keywords = {"use": cst.SimpleString(repr(use.kind))}
    if use.kind == "arith" and use.against:
        keywords["against"] = cst.Tuple([cst.Element(e.deep_clone()) for e in use.against])
    return keywords
