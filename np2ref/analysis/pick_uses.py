"""Where the value of a builtin `max(...)`/`min(...)` goes, and so whether the TYPE of the operand
Python picks can show (rt/picks.py npr_max's `use=`).

Python's max()/min() return one operand: `max(0, H[i - 1, j] + gap)` is the int 0 or NumPy's
float64 as the data decides, where the translation folds jnp.where and promotes both. The type
cannot show where every use of the result only reads its value:
- stored into an array element or slice (`H[i, j] = max(0, ...)`: the store casts to H's dtype),
- compared (`if max(a, b) > t`), given to float()/int()/bool(),
- given to another max()/min() whose result is used so, or bound to a name used only so.
That is 'value'. An operand of arithmetic (`x * min(x[0], 2.5)`, `s += max(...)`) is 'arith':
its result dtype follows the picked operand's kind and weakness; 'noted' where that arithmetic is
Python's operators alone, on names (`h * max(0.2, f)`, `y + h * k[0]` with h carried by a loop):
the runtime's note on a float64 (int64, complex128; int16 with Python ints) result that may be a
Python number follows it there (rt/picks._npr_either_pick). Returned where nothing else reads it
(`return m`, an item of a returned tuple, list or dict display) is 'returned': its type shows in
the call's result alone. Anything else (printed, put in a list, passed to a function) is 'typed'. rt/picks.py refuses, by use, the operand mixes whose
result could differ (NPR128). Names bound to arithmetic on a pick are followed too (of_derived).

    value_uses(func) -> {max/min Call: Use}; keywords(call, ctx): the emitted `use=`, `against=`
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import libcst as cst

from ..emit import jaxnames as J
from .nodes import nodes_of, run_visitor

_ORDER = {"value": 0, "returned": 1, "typed": 2, "noted": 3, "arith": 4}
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
    kind: str  # 'value', 'returned', 'typed', 'noted' or 'arith' (_ORDER)
    bases: frozenset = frozenset()  # the bases of the array stores the value reaches
    against: tuple | None = ()  # arith: chains of levels of the arithmetic it flows into (_Uses.probe); None: not known
    reads: tuple = ()  # (Name, levels, noted): reads of a name bound to the pick, in arithmetic checked where they run
    into: tuple = ()  # the arrays the pick is stored into, by the statement that picks (its only use)
    marks: tuple = ()  # reads of a name bound to arithmetic on the pick, noted again there (of_derived)

    def worst(self, other: Use) -> Use:
        against = None if self.against is None or other.against is None else self.against + other.against
        return Use(max(self.kind, other.kind, key=_ORDER.__getitem__), self.bases | other.bases, against,
                   self.reads + other.reads, marks=self.marks + other.marks)  # (into: never combined)


_TYPED = Use("typed")
HOLE = "_npr_p"  # the probe's stand-in for the picked value (rt/picks.npr_like)
_SIGNS = (cst.Minus, cst.Plus, cst.BitInvert)


def _arith_parent(parent) -> bool:
    return isinstance(parent, cst.BinaryOperation) or isinstance(parent, cst.UnaryOperation) \
        and isinstance(parent.operator, _SIGNS)


class _NotProbed(Exception):
    pass


def _stand_in(node, hole):
    """`node` with `hole` as `_npr_p` and each operand as its type's stand-in: a number as written,
    a name or a name's subscript (`u[1:]`: u's dtype) `npr_like(name)`; anything else (a call,
    an attribute) cannot be stood in for."""
    if node is hole:
        return cst.Name(HOLE)
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
        return node.deep_clone()
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name):
        node = node.value
    if isinstance(node, cst.Name):
        return J.call(J.LIKE, cst.Name(node.value))
    if isinstance(node, cst.BinaryOperation):
        return node.with_changes(left=_stand_in(node.left, hole), right=_stand_in(node.right, hole))
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, _SIGNS):
        return node.with_changes(expression=_stand_in(node.expression, hole))
    raise _NotProbed


def _numbers_only(levels) -> bool:
    """No operand of `levels` but numbers: evaluated beside the pick, they are what they are at the read."""
    return not any(n.value == J.LIKE for level in levels if not isinstance(level, cst.Name)
                   for n in nodes_of(level, cst.Name))


class _Uses:
    def __init__(self, found: _Find):
        self.f = found

    def probe(self, expr) -> tuple | None:
        """The arithmetic `expr`'s value is an operand of, up to the first node that is not
        arithmetic (`y32 * (2 * max(...))`; `u[1:] -= dt * (u[1:] - u[:-1])`, u's dtype with
        it), as its levels: each the operation on the level below, `_npr_p`, with stand-ins of
        the other operands' types (rt/picks.npr_like), for NumPy to evaluate; the dtype of each
        level is NumPy's. Where an operand further up is not a number, a name or a name's
        subscript (a call), the levels stop below it, cut (`npr_cut`: the last one's weakness
        counts too). None where the first level is such."""
        top, levels = expr, []
        while True:
            parent = self.f.parent.get(id(top))
            if _arith_parent(parent):
                wider = parent
            elif isinstance(parent, cst.AugAssign) and (parent.value is top or parent.target is top):
                target = parent.target.value if isinstance(parent.target, cst.Subscript) else parent.target
                operator = getattr(cst, type(parent.operator).__name__.removesuffix("Assign"))()
                wider = cst.BinaryOperation(target if parent.value is top else top, operator, parent.value)
            else:
                return tuple(levels) or None
            try:
                levels.append(_stand_in(wider, top))
            except _NotProbed:
                return (*levels, cst.Name(J.CUT)) if levels else None
            if isinstance(parent, cst.AugAssign):
                return tuple(levels)
            top = parent

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
        if self._returned(expr):
            return Use("returned")
        if _arith_parent(parent) or isinstance(parent, cst.AugAssign):
            chain = self.probe(expr)  # (`a[...] += m`: a's dtype, the sum's store)
            found = Use("noted" if self._noted(expr) else "arith", against=(chain,) if chain else None)
            return found.worst(self.of_derived(expr, seen))
        if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Subscript):  # (`a[i] = max(k[i], 0.5)`: a's dtype, beside the pick)
                return Use("value", frozenset({target.value}), into=(target.value,) if _is_pick(expr) and isinstance(target.value, cst.Name) else ())
            if isinstance(target, cst.Name):
                return self.of_name(target.value, seen, parent)
        return _TYPED

    def of_name(self, name: str, seen: frozenset, anchor: cst.Assign) -> Use:
        """The worst use of a name's reads (a cycle, `best = max(best, v)`, adds nothing). A read in
        arithmetic after the pick (_follows) is checked where it runs (npr_picked: its operands
        bound after the pick too, `k = y32; k * dt`); in arithmetic elsewhere (behind a loop or a
        branch), not known."""
        if name in seen:
            return Use("value")
        if name in self.f.nested_reads or name in self.f.declared:
            return _TYPED
        reads = self.f.reads.get(name, ())
        if reads and all(self._returned(read) for read in reads):
            return Use("returned")  # (else a return of it is 'typed': its other reads see the fold's value)
        use = Use("value")
        for read in reads:
            parent = self.f.parent.get(id(read))
            if _arith_parent(parent) or isinstance(parent, cst.AugAssign):
                probe = self.probe(read)
                followed = probe is not None and self._follows(name, anchor, read)
                if followed:  # (`noted`: Python's operators alone, the fold's note checks them: npr_picked)
                    use = use.worst(Use("value", reads=((read, probe, self._noted(read)),)))
                else:  # (`h = min(h * 1.5, hmax)`: numbers alone are the same beside the pick; the value
                    # read, another traced one (a loop's carry), noted again: of_derived)
                    marks = (read,) if self._shows(read) else ()  # (`v -= 1` in a branch: its own note, rt/raises.py)
                    kind = "noted" if (marks or self._straight(name, anchor, read)) and self._noted(read) else "arith"
                    use = use.worst(Use(kind, against=(probe,) if probe and _numbers_only(probe) else None, marks=marks))
                use = use.worst(self.of_derived(read, seen | {name}, followed or not self._target(read)))
                continue
            found = self.of_expr(read, seen | {name})
            found = _TYPED if found.kind == "returned" else found
            if self._shows(read) and not self._follows(name, anchor, read) \
                    and self.f.parent.get(id(parent)) is not anchor.value:  # (`min(h, t_end - t)`, h carried; not
                found = found._replace(marks=found.marks + (read,))  # `best = max(best, v)`, the pick's own)
            use = use.worst(found if found.kind != "arith" else found._replace(against=None))
        return use

    def of_derived(self, expr, seen: frozenset, noted: bool = True) -> Use:
        """Where a name bound to the arithmetic `expr` is an operand of goes (`m2 = m * 2`, `k = 2 *
        max(...)`, `h = h * max(0.2, f)`; `m2 *= 3` rebinding it in turn), transitively: NumPy's m2
        is a NumPy scalar or a Python number as m was, which the runtime's note on the traced value
        (promotion._npr_mark_either) follows through the operators and picks reading it, refusing
        (NPR128) one that meets a dtype for which the two promote differently (`y32 * m2`). A read
        its binding may not reach (_reaches: behind a loop or a branch that rebinds it, whose carry
        is another traced value) is `npr_either(m2)` (`marks`): noted again; every read is, where the
        value bound is not `noted` (`m2 *= 3` of such a read: its target cannot be). Not a name that
        `t += dt` binds (a time loop's clock, only compared and returned: rt/pyscalars.py)."""
        top = expr
        while _arith_parent(self.f.parent.get(id(top))):
            top = self.f.parent[id(top)]
        bound = self._bound_to(top)
        if bound is None or bound in seen:
            return Use("value")
        name, anchor = bound
        if name in self.f.nested_reads or name in self.f.declared or name in self.f.deleted:
            return _TYPED
        seen, use = seen | {bound}, Use("value")
        for read in self.f.reads.get(name, ()):
            parent = self.f.parent.get(id(read))
            reached = noted and self._reaches(name, anchor, read)
            if _arith_parent(parent) or isinstance(parent, cst.AugAssign) or self._bound_to(read):
                found = self.of_derived(read, seen, reached or not self._target(read) or self._straight(name, anchor, read))
            else:
                found = self.of_expr(read, seen)
                found = found if found.kind != "arith" else found._replace(against=None)
            use = use.worst(found if reached or not self._shows(read) else found._replace(marks=found.marks + (read,)))
        return use

    def _returned(self, expr) -> bool:
        """`return expr`, or expr an item of a returned tuple or list or a value of a returned dict
        display: where the call's result shows its type, and nothing else reads it (rt/picks.py
        returns a float32 pick of Python floats there as NumPy does: 'returned')."""
        parent = self.f.parent.get(id(expr))
        if isinstance(parent, (cst.Element, cst.DictElement)) and parent.value is expr:
            parent = self.f.parent.get(id(self.f.parent.get(id(parent))))
        return isinstance(parent, cst.Return)

    def _noted(self, expr) -> bool:
        """The arithmetic `expr` is an operand of is Python's operators (the traced variant's, which
        the runtime's notes follow: rt/promotion.py), up to a value not stored by `a[...] op= v`."""
        while _arith_parent(self.f.parent.get(id(expr))):
            expr = self.f.parent[id(expr)]
        parent = self.f.parent.get(id(expr))
        return not isinstance(parent, cst.AugAssign) or isinstance(parent.target, cst.Name)

    def _straight(self, name: str, anchor, read) -> bool:
        """`read` follows `anchor` in its block through branches alone (each hands its values in
        noted again: rt/raises.py), no loop holding it below that block's statement (a loop's carry
        is another traced value, unnoted), and the statements between bind `name` in straight code
        only (a branch's result is another traced value too)."""
        line = self.f.parent.get(id(anchor))
        suite = self.f.parent.get(id(line))
        order = {id(s): i for i, s in enumerate(getattr(suite, "body", ()))}
        there = self._statement_in(read, suite)
        if id(line) not in order or there is None or order.get(id(there), -1) <= order[id(line)]:
            return False
        holds, node = set(), read  # (the statements holding the read)
        while node is not None and node is not suite:
            if isinstance(node, (cst.For, cst.While, cst.Try)):
                return False
            holds.add(id(node))
            node = self.f.parent.get(id(node))
        for store in self.f.stored.get(name, ()):
            at, node = self._statement_in(store, suite), self.f.parent.get(id(store))
            if at is there:  # (`if c: v = f(v)` then `v -= 1` in the same branch: straight; in an inner one: not)
                while node is not there:
                    if isinstance(node, cst.BaseCompoundStatement) and id(node) not in holds:
                        return False
                    node = self.f.parent.get(id(node))
            elif not isinstance(at, cst.SimpleStatementLine) and order[id(line)] < order.get(id(at), -1) < order[id(there)]:
                return False
        return True

    def _target(self, read) -> bool:
        """`read` is the target of `name op= v` (a store too: not noted again where read)."""
        parent = self.f.parent.get(id(read))
        return isinstance(parent, cst.AugAssign) and parent.target is read

    def _shows(self, read) -> bool:
        """Whether the kind of the value `read` reads can show there: an operand of arithmetic or of
        a pick, or bound to another name (not a comparison, a store, a cast: their values only; nor
        a return: rt/pyscalars.py), and not a target (`h *= 2`)."""
        parent = self.f.parent.get(id(read))
        if isinstance(parent, cst.Arg):
            return _is_pick(self.f.parent.get(id(parent)))
        return (_arith_parent(parent) or isinstance(parent, cst.AugAssign) or self._bound_to(read) is not None) \
            and not self._target(read)

    def _bound_to(self, top):
        """(name, statement) where `top` is the whole value of `name = top`, or the target of `name
        op= v` (a rebinding of itself); else None."""
        parent = self.f.parent.get(id(top))
        if isinstance(parent, cst.Assign) and parent.value is top and len(parent.targets) == 1 \
                and isinstance(parent.targets[0].target, cst.Name):
            return parent.targets[0].target.value, parent
        if isinstance(parent, cst.AugAssign) and parent.target is top:
            return top.value, parent
        return None

    def _reaches(self, name: str, anchor, read) -> bool:
        """`read` is in a statement after `anchor`'s (a single simple statement) in its block, the
        statements between bind `name` nowhere, nor does the read's own unless it is a simple one
        (`m2 = m2 * 2`, `m2 += 1`: read before it binds): the value read is the one `anchor` bound."""
        line = self.f.parent.get(id(anchor))
        suite = self.f.parent.get(id(line))
        if suite is None or not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
            return False
        order = {id(s): i for i, s in enumerate(getattr(suite, "body", ()))}
        there = self._statement_in(read, suite)
        if there is None or order.get(id(there), -1) <= order[id(line)]:
            return False
        first, last = order[id(line)], order[id(there)] + (not isinstance(there, cst.SimpleStatementLine))
        return not any(first < order.get(id(self._statement_in(store, suite)), -1) < last
                       for store in self.f.stored.get(name, ()))

    def _statement_in(self, node, suite):
        """The statement of `suite` that holds `node`, or None."""
        while node is not None:
            parent = self.f.parent.get(id(node))
            if parent is suite:
                return node
            node = parent
        return None

    def _follows(self, name: str, anchor: cst.Assign, read: cst.Name) -> bool:
        """`read`'s statement follows the pick's (`anchor`, a single simple statement), a single
        simple statement in the same block, and none between them binds `name` (the read's own
        may, as its target: `t += dt`): the value read is the one picked."""
        line = self.f.parent.get(id(anchor))
        suite = self.f.parent.get(id(line))
        if name in self.f.deleted or suite is None or not isinstance(line, cst.SimpleStatementLine) \
                or len(line.body) != 1:
            return False
        there = self._statement_in(read, suite)
        order = {id(s): i for i, s in enumerate(getattr(suite, "body", ()))}
        if not isinstance(there, cst.SimpleStatementLine) or len(there.body) != 1 or id(there) not in order:
            return False
        first, last = order[id(line)], order[id(there)]
        return first < last and not any(first < order.get(id(self._statement_in(store, suite)), -1) < last
                                        for store in self.f.stored.get(name, ()))


@functools.lru_cache(maxsize=64)
def value_uses(func: cst.FunctionDef) -> dict[cst.Call, Use]:
    """Each builtin max()/min() call of several operands in `func`'s body (outside nested scopes)
    -> its Use."""
    if not any(_is_pick(call) for call in nodes_of(func.body, cst.Call)):
        return {}  # (most functions: no walk of their body)
    found = _Find()
    run_visitor(func.body, found)
    uses = _Uses(found)
    return {call: uses.of_expr(call, frozenset()) for call in found.picks}


def _levels(levels) -> list[cst.BaseExpression]:
    """Each level as `lambda _npr_p: ...`; a cut as `npr_cut`."""
    return [level if isinstance(level, cst.Name) else cst.Lambda(cst.Parameters([cst.Param(cst.Name(HOLE))]),
                                                                 level.deep_clone()) for level in levels]


def keywords(call: cst.Call, ctx) -> dict[str, cst.BaseExpression]:
    """`use='value'` / `use='arith', against=(lambda _npr_p: npr_like(y8) * _npr_p,)` for the
    emitted npr_max/npr_min (none where 'typed'): 'value' only where the stores it reaches are
    stores into arrays (their bases store proxies), not a list's item."""
    use = value_uses(ctx.f.node).get(call, _TYPED)
    if use.kind == "typed" or use.kind == "value" and not use.bases <= ctx.m.store_bases:
        return {}
    keywords = {"use": cst.SimpleString(repr(use.kind))}
    if use.kind in ("arith", "noted") and use.against:  # (one chain: its levels; several: a tuple of each's)
        chains = [cst.Tuple([cst.Element(e) for e in _levels(chain)]) for chain in use.against]
        keywords["against"] = chains[0] if len(chains) == 1 else cst.Tuple([cst.Element(c) for c in chains])
    if use.kind == "value" and use.into:
        keywords["into"] = cst.Tuple([cst.Element(e.deep_clone()) for e in use.into])
    return keywords


@functools.lru_cache(maxsize=64)
def checked_reads(func: cst.FunctionDef) -> dict[cst.Name, tuple | None]:
    """The reads of names bound to a pick that arithmetic after it checks (`npr_picked(dt,
    lambda _npr_p: ...)`) -> (their probe, whether Python's operators alone); the reads of names bound to arithmetic on one that are
    noted again (`npr_either(h)`: Use.marks) -> None, where not checked too."""
    marked = {read: None for use in value_uses(func).values() for read in use.marks}
    return marked | {read: (probe, noted) for use in value_uses(func).values() for read, probe, noted in use.reads}


def read_check(read: cst.Name, emitted, ctx):
    """`npr_picked(read, probe)` / `npr_either(read)` / `npr_picked(npr_either(read), probe)`
    where `read` is such a read, else None."""
    checked = checked_reads(ctx.f.node)
    if read not in checked:
        return None
    if any(read in use.marks for use in value_uses(ctx.f.node).values()):
        emitted = J.call(J.EITHER, emitted)
    if checked[read] is None:
        return emitted
    probe, noted = checked[read]
    return J.call(J.PICKED, emitted, *_levels(probe), **({"noted": cst.Name("True")} if noted else {}))
