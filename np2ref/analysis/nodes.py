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
        if fields is None:
            fields = _FIELDS[kind] = tuple(f for f in n.__dataclass_fields__ if not f.startswith(_LAYOUT))
        for field in fields:
            v = getattr(n, field)
            if isinstance(v, cst.CSTNode):
                stack.append(v)
            elif isinstance(v, (list, tuple)):
                stack.extend(c for c in v if isinstance(c, cst.CSTNode))


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
