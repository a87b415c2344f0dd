"""Walking libcst trees fast: libcst's own visitors rebuild each node they pass, far slower than
reading the dataclass fields, which is all the analyses and rules need."""

from __future__ import annotations

import collections

import libcst as cst

from .typed_walks import _TYPED, _table, runs_between, typed_runs as _typed_runs

_LAYOUT = ("whitespace", "lpar", "rpar", "comma", "semicolon", "leading_lines", "trailing_whitespace",
           "header", "footer", "lines_after_decorators", "equal", "colon", "dot")  # fields of layout only


def walk(node: cst.CSTNode):
    """Every node under `node` (its dataclass fields: libcst's `children` is much slower), `node`
    first. A module or function is walked once: the order is kept, and any later walk of it or of
    a node in it reads that (a tree is immutable: the same nodes in the same order)."""
    span = _SPANS.get(id(node))
    if span is not None:
        order, start, end = span
        return iter(order[start:end])
    if isinstance(node, _ROOTS):
        return iter(_index(node))
    return _walk(node)


def _walk(node: cst.CSTNode):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(_children(n))


def _children(n: cst.CSTNode) -> list:
    """The nodes n's visited fields hold, in field order (walk pushes them: the last comes out first)."""
    fields = _FIELDS.get(type(n))
    return _held(n, fields if fields is not None else _fields(n))


def _held(n: cst.CSTNode, fields) -> list:
    """The nodes n's `fields` hold, in order (a field holds a node, a sequence of them, None or a sentinel)."""
    found = []
    for field in fields:
        v = getattr(n, field)
        vkind = type(v)
        if vkind is tuple or vkind is list:
            found.extend(v)
        elif v is not None and vkind is not cst.MaybeSentinel:
            found.append(v)
    return found


def _fields(n: cst.CSTNode) -> tuple[str, ...]:
    """The fields of n's type that libcst visits and are not layout (they hold nodes, sequences
    of them, None or a sentinel)."""
    visited = _field_order(n)
    fields = _FIELDS[type(n)] = tuple(f for f in n.__dataclass_fields__ if not f.startswith(_LAYOUT) and f in visited)
    return fields


_FIELDS: dict[type, tuple[str, ...]] = {}  # a node type's fields that are not layout

# -- the walk index: one walk of a module or function, read by every later walk in it ----------
# id(node) -> (the walk of the tree it was met in, where node's own walk starts and ends in it):
# a node's walk is a contiguous run of its tree's (walk is depth-first). The entries hold their
# trees, so an id is never reused while it is a key; the oldest trees are let go past _MOST nodes.
_SPANS: dict[int, tuple[list, int, int]] = {}


class _Kept:
    """The trees a table holds entries of, oldest first, and how many nodes they hold: past _MOST,
    the oldest are let go (a node another tree shares keeps the entry of the tree that met it last)."""

    def __init__(self, table: dict, by_owner: dict | None = None):
        self.table = table
        self.by_owner = by_owner  # id(owner) -> what is kept of it beside the table (let go with it)
        self.trees: collections.deque = collections.deque()  # (its nodes, the owner its entries name)
        self.total = 0

    def add(self, nodes: list, owner) -> None:
        self.trees.append((nodes, owner))
        self.total += len(nodes)
        while self.total > _MOST and len(self.trees) > 1:
            old, old_owner = self.trees.popleft()
            self.total -= len(old)
            if self.by_owner is not None:
                self.by_owner.pop(id(old_owner), None)
            for n in old:
                entry = self.table.get(id(n))
                if entry is not None and entry[0] is old_owner:
                    del self.table[id(n)]


_TREES = _Kept(_SPANS, _TYPED)  # the walks indexed
_MOST = 400_000  # (a 6,000-line module is 76,000 nodes)
_ROOTS = (cst.Module, cst.FunctionDef)


def _index(root: cst.CSTNode) -> list:
    """Walk `root` (walk's order), note every node's run in it, and return the walk."""
    order: list = []
    up: list[int] = []  # the index of each node's parent (-1: the root)
    stack = [(root, -1)]
    while stack:
        n, parent = stack.pop()
        at = len(order)
        order.append(n)
        up.append(parent)
        stack.extend([(c, at) for c in _children(n)])
    size = [1] * len(order)
    for i in range(len(order) - 1, 0, -1):
        size[up[i]] += size[i]
    spans = _SPANS
    for i, n in enumerate(order):
        spans[id(n)] = (order, i, i + size[i])
    _TREES.add(order, order)
    return order


def nodes_of(tree: cst.CSTNode, kinds) -> list:
    """[n for n in walk(tree) if isinstance(n, kinds)], in walk's order (checked by each node's
    type against a table of the types met: libcst's classes are ABCs, whose isinstance is slow).
    In a large tree already walked, read from the positions of its types (_typed_runs)."""
    table = _table(kinds)
    span = _SPANS.get(id(tree))
    if span is not None and span[2] - span[1] > _SMALL:
        order = span[0]
        runs = _typed_runs(span, kinds, table)
        positions = runs[0] if len(runs) == 1 else sorted(p for run in runs for p in run)
        return [order[p] for p in positions]
    found = []
    for n in walk(tree):
        hit = table.get(type(n))
        if hit is None:
            hit = table[type(n)] = issubclass(type(n), kinds)
        if hit:
            found.append(n)
    return found


def contains(tree: cst.CSTNode, kinds) -> bool:
    """Whether `tree` holds a node of one of `kinds` (never a layout node: whitespace, commas)."""
    table = _table(kinds)
    span = _SPANS.get(id(tree))
    if span is not None and span[2] - span[1] > _SMALL:
        return bool(_typed_runs(span, kinds, table))
    for n in walk(tree):
        hit = table.get(type(n))
        if hit is None:
            hit = table[type(n)] = issubclass(type(n), kinds)
        if hit:
            return True
    return False


def visit_every(visitor: cst.CSTVisitor, tree: cst.CSTNode) -> None:
    """visitor.visit_<Type>(node) for every node under tree: for a visitor that reads every node
    (its visit methods return None, it has no leave method), as tree.visit(visitor) would."""
    methods: dict[type, object] = {}
    for node in walk(tree):
        kind = type(node)
        if kind not in methods:
            methods[kind] = getattr(visitor, f"visit_{kind.__name__}", None)
        if methods[kind] is not None:
            methods[kind](node)


def number_literal(node: cst.CSTNode) -> bool:
    """`0.0`, `-1`, `2j`: a Python number, immutable (nothing can write it in place)."""
    while isinstance(node, cst.UnaryOperation):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float, cst.Imaginary))


# -- tree.visit(visitor), fast --------------------------------------------------------------------
# libcst's CSTNode.visit rebuilds (and validates) every node it passes, even for a read-only
# CSTVisitor, and calls on_visit_attribute/on_leave_attribute around every field: most of a
# conversion's time went there (issue 43). run_visitor() below calls the same visitor methods on the
# same nodes in the same order, reading the fields instead of rebuilding the nodes.

class _FieldOrder(cst.CSTVisitor):
    """Records the fields libcst's own traversal visits, in its order, entering no child."""

    def __init__(self):
        self.names: list[str] = []

    def on_visit(self, node) -> bool:
        return False

    def on_leave(self, original_node) -> None:
        pass

    def on_visit_attribute(self, node, attribute: str) -> None:
        if attribute not in self.names:
            self.names.append(attribute)

    def on_leave_attribute(self, original_node, attribute: str) -> None:
        pass


_ORDER: dict[type, tuple[str, ...]] = {}
# fields libcst visits only when set (FormattedStringExpression's format_spec): last either way
_SOMETIMES = ("format_spec",)


def _field_order(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields of node's type in the order libcst visits them (learnt once per type from
    libcst's own `_visit_and_replace_children`)."""
    kind = type(node)
    order = _ORDER.get(kind)
    if order is None:
        recorder = _FieldOrder()
        node._visit_and_replace_children(recorder)
        order = _ORDER[kind] = (*recorder.names, *(f for f in _SOMETIMES if f in kind.__dataclass_fields__
                                                   and f not in recorder.names))
    return order


_LAYOUT_TYPES = (cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Comment,
                 cst.Newline, cst.Comma, cst.Colon, cst.Dot, cst.AssignEqual, cst.Semicolon, cst.LeftParen,
                 cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
                 cst.RightCurlyBrace)
def _all_subclasses(kind: type) -> list[type]:
    found = [kind]
    for sub in kind.__subclasses__():
        found += _all_subclasses(sub)
    return found


_LAYOUT_KINDS = frozenset(t for base in _LAYOUT_TYPES for t in _all_subclasses(base))


class _Plan:
    """How run_visitor() drives one visitor class: its visit_/leave_ methods by node type, whether it
    overrides on_visit/on_leave (then they are called for every node, layout included), and
    whether layout nodes (whitespace, commas, parentheses) can be skipped: no method of the
    visitor can see them."""

    def __init__(self, generic: bool, own: frozenset[str], layout_blind: bool):
        self.generic = generic
        self.own = own
        self.by_attribute = any(n.count("_") > 1 and n.split("_")[1][:1].isupper() and
                                hasattr(cst, n.split("_")[1]) for n in own)  # visit_If_test
        # (a visitor overriding on_visit/on_leave sees layout nodes, unless its class says
        # `layout_blind = True`: its on_visit/on_leave do nothing with them)
        self.skip_layout = (not generic or layout_blind) and not any(
            n.split("_", 1)[1] in _LAYOUT_NAMES for n in own)
        self._names: dict[type, tuple[str | None, str | None] | None] = {}
        self.wanted: dict[type, bool] = {}  # whether names_of(type) is not None

    @staticmethod
    def of(kind: type) -> "_Plan":
        """A visitor class's plan, one per shape (on_visit/on_leave overridden, its own visit_/leave_
        names: libcst's no-op defaults do not count, `layout_blind`): a class made by each call
        (`class V` in a function) finds the plan and tours' type lists its def's first call made."""
        generic = kind.on_visit is not cst.CSTVisitor.on_visit or kind.on_leave is not cst.CSTVisitor.on_leave
        own = frozenset(n for c in kind.__mro__ if not c.__module__.startswith("libcst") for n in vars(c)
                        if n.startswith(("visit_", "leave_")))
        shape = (generic, own, bool(getattr(kind, "layout_blind", False)))
        return _SHAPES.get(shape) or _SHAPES.setdefault(shape, _Plan(*shape))

    def names_of(self, kind: type) -> tuple[str | None, str | None] | None:
        """(visit_X, leave_X) of the visitor's own methods for node type X (None for one it has
        not), or None when it has neither."""
        found = self._names.get(kind, False)
        if found is False:
            enter, leave = f"visit_{kind.__name__}", f"leave_{kind.__name__}"
            found = (enter if enter in self.own else None, leave if leave in self.own else None)
            found = self._names[kind] = found if found != (None, None) else None
        return found


_LAYOUT_NAMES = frozenset(t.__name__ for t in _LAYOUT_KINDS)


def own_method(cls: type, prefix: str, kind: type):
    """The function `cls` defines as `<prefix><kind's name>` (visit_If, leave_If), or None when
    only libcst's no-op default does: what libcst's on_visit/on_leave find with getattr by a name
    made for each node, looked up once per type (a visitor overriding on_visit calls this)."""
    key = (cls, prefix, kind)
    found = _OWN.get(key, False)
    if found is False:
        name = prefix + kind.__name__
        owner = next((c for c in cls.__mro__ if name in vars(c)), None)
        found = _OWN[key] = None if owner is None or owner.__module__.startswith("libcst") else vars(owner)[name]
    return found


_OWN: dict = {}


def is_expression(kind: type) -> bool:
    """issubclass(kind, cst.BaseExpression), read from a table (libcst's bases are ABCs, whose
    checks are slow; the rewrite asks for every node it leaves)."""
    found = _EXPRESSIONS.get(kind)
    if found is None:
        found = _EXPRESSIONS[kind] = issubclass(kind, cst.BaseExpression)
    return found


_EXPRESSIONS: dict[type, bool] = {}
_PLANS: dict[type, _Plan] = {}  # (module-level visitor classes; a class made per call finds its shape's)
_SHAPES: dict[tuple, _Plan] = {}


def run_visitor(tree: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`tree.visit(visitor)` for a read-only CSTVisitor: the same calls in the same order
    (on_visit, the children when it does not return False, on_leave), without rebuilding the
    tree. A transformer, or a visitor with per-attribute methods, goes through libcst."""
    kind = type(visitor)
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _Plan.of(kind) if isinstance(visitor, cst.CSTVisitor) else None
        if "<locals>" not in kind.__qualname__:  # (a class made per call would only fill the table)
            _PLANS[kind] = plan
    if plan is None or plan.by_attribute:
        tree.visit(visitor)
        return
    if plan.generic:
        _visit_generic(tree, visitor.on_visit, visitor.on_leave, plan.skip_layout)
        return
    toured = _toured(tree) if plan.skip_layout else None
    if toured is not None:
        _visit_toured(*toured, visitor, plan)
        return
    _visit_typed(tree, visitor, {"own": plan.own}, {}, plan.skip_layout)


def _visit_generic(node, on_visit, on_leave, skip_layout: bool) -> None:
    if skip_layout and type(node) in _LAYOUT_KINDS:
        return
    if on_visit(node):
        order = _ORDER.get(type(node))
        for field in order if order is not None else _field_order(node):
            v = getattr(node, field)  # (a visited field holds a node, a sequence of them, None or a sentinel)
            kind = type(v)
            if kind is tuple or kind is list:
                for c in v:
                    _visit_generic(c, on_visit, on_leave, skip_layout)
            elif v is not None and kind is not cst.MaybeSentinel:
                _visit_generic(v, on_visit, on_leave, skip_layout)
    on_leave(node)


def _visit_typed(node, visitor, enter: dict, leave: dict, skip_layout: bool) -> None:
    kind = type(node)
    if skip_layout and kind in _LAYOUT_KINDS:
        return
    if kind not in enter:
        own = enter["own"]
        enter[kind] = getattr(visitor, f"visit_{kind.__name__}") if f"visit_{kind.__name__}" in own else None
        leave[kind] = getattr(visitor, f"leave_{kind.__name__}") if f"leave_{kind.__name__}" in own else None
    method = enter[kind]
    if method is None or method(node) is not False:
        order = _ORDER.get(kind)
        for field in order if order is not None else _field_order(node):
            v = getattr(node, field)
            vkind = type(v)
            if vkind is tuple or vkind is list:
                for c in v:
                    _visit_typed(c, visitor, enter, leave, skip_layout)
            elif v is not None and vkind is not cst.MaybeSentinel:
                _visit_typed(v, visitor, enter, leave, skip_layout)
    method = leave[kind]
    if method is not None:
        method(node)


# -- a typed visitor over a tour: only the nodes it has methods for --------------------------------
# A read-only visitor with visit_X/leave_X methods only (no on_visit/on_leave of its own) is called
# on the nodes of its types alone: each module or function is toured once (libcst's order, layout
# left out), each node's position and the end of its run noted, and a visitor's run reads the
# positions of its types in the run of the tree it was given: a visitor of calls passes over the
# calls, not over every node (the analyses' many small visitors were most of a conversion's
# walking, issue 43). The calls, their order and a visit returning False (its children skipped)
# are those of _visit_typed.

class _Tour:
    __slots__ = ("nodes", "close", "by_type", "wanted")

    def __init__(self, root: cst.CSTNode):
        self.nodes: list = []  # libcst's visiting order, layout left out
        self.close: list[int] = []  # where each node's run ends
        self.by_type: dict[type, list[int]] = {}  # the positions of each type's nodes, ascending
        self.wanted: dict[_Plan, list[list[int]]] = {}  # by_type's lists of the types a plan has methods for
        stack: list = [root]
        nodes, close, by_type = self.nodes, self.close, self.by_type
        while stack:
            n = stack.pop()
            if type(n) is int:  # (a marker: the run of the node at n ends here)
                close[n] = len(nodes)
                continue
            kind = type(n)
            if kind in _LAYOUT_KINDS:
                continue
            at = len(nodes)
            nodes.append(n)
            close.append(0)
            by_type.setdefault(kind, []).append(at)
            stack.append(at)
            order = _ORDER.get(kind)
            children = _held(n, order if order is not None else _field_order(n))
            children.reverse()
            stack.extend(children)
        for i, n in enumerate(nodes):
            _TOURED[id(n)] = (self, i)
        _TOURS.add(nodes, self)


_SMALL = 48  # nodes
_TOURED: dict[int, tuple[_Tour, int]] = {}  # id(node) -> (its tour, its position): held as _SPANS are
_TOURS = _Kept(_TOURED)


def tour(module: cst.Module) -> None:
    """Tour the module now, once for every visitor run in it (else each function touring itself
    first, and the module again for a visitor of the whole module)."""
    if id(module) not in _TOURED:
        _Tour(module)


def toured_parents(tree: cst.CSTNode) -> tuple[list, dict] | None:
    """(the nodes under `tree` in libcst's order, layout left out, `tree` first; each one's parent
    but tree's), read from the tour; None for a tree that is neither toured nor a module or function."""
    found = _toured(tree)
    if found is None:
        return None
    tour, start = found
    nodes, close = tour.nodes, tour.close
    parent = {}
    open_ = [start]  # the positions whose runs hold p, innermost last
    for p in range(start + 1, close[start]):
        while close[open_[-1]] <= p:
            open_.pop()
        parent[nodes[p]] = nodes[open_[-1]]
        open_.append(p)
    return nodes[start:close[start]], parent


def _toured(tree: cst.CSTNode) -> tuple[_Tour, int] | None:
    found = _TOURED.get(id(tree))
    if found is None and isinstance(tree, _ROOTS):
        found = (_Tour(tree), 0)
    return found


def _visit_toured(tour: _Tour, start: int, visitor, plan: "_Plan") -> None:
    """_visit_typed(tour.nodes[start], ...) on the nodes the visitor has methods for."""
    stop = tour.close[start]
    nodes, close = tour.nodes, tour.close
    if stop - start <= _SMALL:  # (a small tree: read its nodes rather than search each type's)
        wanted = plan.wanted
        positions = []
        for p in range(start, stop):
            kind = type(nodes[p])
            hit = wanted.get(kind)
            if hit is None:
                hit = wanted[kind] = plan.names_of(kind) is not None
            if hit:
                positions.append(p)
    else:
        lists = tour.wanted.get(plan)
        if lists is None:  # (once per tour and plan: a tour holds ~30 types, a visitor wants a few)
            lists = tour.wanted[plan] = [where for kind, where in tour.by_type.items() if plan.names_of(kind) is not None]
        runs = runs_between(lists, start, stop)
        positions = runs[0] if len(runs) == 1 else sorted(p for run in runs for p in run)
    methods: dict = {}
    pending: list = []  # (end of run, node, its leave method), innermost last
    skip = -1  # positions below skip lie under a node whose visit returned False
    for p in positions:
        if p < skip:
            continue
        while pending and pending[-1][0] <= p:
            _, n, leave = pending.pop()
            leave(n)
        n = nodes[p]
        found = methods.get(type(n))
        if found is None:
            names = plan.names_of(type(n))
            found = methods[type(n)] = tuple(getattr(visitor, name) if name else None for name in names)
        enter, leave = found
        if enter is None or enter(n) is not False:
            if leave is not None:
                pending.append((close[p], n, leave))
        else:
            if leave is not None:
                leave(n)
            skip = close[p]
    while pending:
        _, n, leave = pending.pop()
        leave(n)
