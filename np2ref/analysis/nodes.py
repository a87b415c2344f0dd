"""Walking libcst trees fast: libcst's own visitors rebuild each node they pass, far slower than
reading the dataclass fields, which is all the analyses and rules need."""

from __future__ import annotations

import libcst as cst

_LAYOUT = ("whitespace", "lpar", "rpar", "comma", "semicolon", "leading_lines", "trailing_whitespace",
           "header", "footer", "lines_after_decorators", "equal", "colon", "dot")  # fields of layout only


def walk(node: cst.CSTNode):
    """Every node under `node` (its dataclass fields: libcst's `children` is much slower)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kind = type(n)
        fields = _FIELDS.get(kind)
        if fields is None:  # (the fields libcst visits hold nodes, sequences of them, None or a sentinel)
            visited = _field_order(n)
            fields = _FIELDS[kind] = tuple(f for f in n.__dataclass_fields__
                                           if not f.startswith(_LAYOUT) and f in visited)
        for field in fields:
            v = getattr(n, field)
            vkind = type(v)
            if vkind is tuple or vkind is list:
                stack.extend(v)
            elif v is not None and vkind is not cst.MaybeSentinel:
                stack.append(v)


_FIELDS: dict[type, tuple[str, ...]] = {}  # a node type's fields that are not layout


def contains(tree: cst.CSTNode, kinds) -> bool:
    """Whether `tree` holds a node of one of `kinds` (never a layout node: whitespace, commas)."""
    return any(isinstance(node, kinds) for node in walk(tree))


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

    def __init__(self, kind: type):
        self.generic = kind.on_visit is not cst.CSTVisitor.on_visit or kind.on_leave is not cst.CSTVisitor.on_leave
        # (libcst's CSTVisitor defines a no-op visit_X, leave_X and visit_X_attr for every type:
        # only the visitor's own methods count)
        names = [n for c in kind.__mro__ if not c.__module__.startswith("libcst") for n in vars(c)
                 if n.startswith(("visit_", "leave_"))]
        self.own = frozenset(names)
        self.by_attribute = any(n.count("_") > 1 and n.split("_")[1][:1].isupper() and
                                hasattr(cst, n.split("_")[1]) for n in names)  # visit_If_test
        # (a visitor overriding on_visit/on_leave sees layout nodes, unless its class says
        # `layout_blind = True`: its on_visit/on_leave do nothing with them)
        self.skip_layout = (not self.generic or getattr(kind, "layout_blind", False)) and not any(
            n.split("_", 1)[1] in _LAYOUT_NAMES for n in names)


_LAYOUT_NAMES = frozenset(t.__name__ for t in _LAYOUT_KINDS)
_PLANS: dict[type, _Plan] = {}  # (module-level visitor classes; a class made per call is planned per call)


def run_visitor(tree: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`tree.visit(visitor)` for a read-only CSTVisitor: the same calls in the same order
    (on_visit, the children when it does not return False, on_leave), without rebuilding the
    tree. A transformer, or a visitor with per-attribute methods, goes through libcst."""
    kind = type(visitor)
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _Plan(kind) if isinstance(visitor, cst.CSTVisitor) else None
        if "<locals>" not in kind.__qualname__:  # (a class made per call would only fill the table)
            _PLANS[kind] = plan
    if plan is None or plan.by_attribute:
        tree.visit(visitor)
        return
    if plan.generic:
        _visit_generic(tree, visitor.on_visit, visitor.on_leave, plan.skip_layout)
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
