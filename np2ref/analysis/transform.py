"""`tree.visit(transformer)`, fast: libcst's traversal for a CSTTransformer rebuilds and validates
every node it passes, changed or not, and calls on_visit_attribute/on_leave_attribute around every
field; a no-op transformer over a 6,000-line module costs 1.7 s (issue 43). run_transformer() calls
the same on_visit/on_leave (so the same visit_X/leave_X) on the same nodes in libcst's order
(analysis/nodes.py learns each type's field order from libcst itself), with libcst's rules for a
removed or flattened child, and rebuilds only the nodes with a changed child: an unchanged subtree
is handed to on_leave as `updated` itself (libcst hands an equal copy), and comes out as it went in.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from .nodes import _LAYOUT_KINDS, _LAYOUT_NAMES, _ORDER, _field_order

_BODIES = frozenset({(cst.Module, "body"), (cst.IndentedBlock, "body")})  # libcst's visit_body_sequence


def run_transformer(tree: cst.CSTNode, transformer: cst.CSTTransformer):
    """tree.visit(transformer). A transformer with per-attribute methods (visit_If_test) goes
    through libcst; one whose class says `layout_blind = True` (its on_visit/on_leave do nothing
    with whitespace, commas, parentheses, and it has no visit_/leave_ method for them) does not
    enter them."""
    names = [n for c in type(transformer).__mro__ if not c.__module__.startswith("libcst") for n in vars(c)
             if n.startswith(("visit_", "leave_"))]
    if any(n.count("_") > 1 and n.split("_")[1][:1].isupper() and hasattr(cst, n.split("_")[1]) for n in names):
        return tree.visit(transformer)
    skip = getattr(transformer, "layout_blind", False) and not any(n.split("_", 1)[1] in _LAYOUT_NAMES for n in names)
    result = _transform(tree, transformer.on_visit, transformer.on_leave, skip)
    if isinstance(tree, cst.Module) and isinstance(result, cst.RemovalSentinel):
        return tree.with_changes(body=(), header=(), footer=())  # (as Module.visit)
    return result


def _transform(node, on_visit, on_leave, skip: bool):
    kind = type(node)
    if skip and kind in _LAYOUT_KINDS:
        return node
    updated = node
    if on_visit(node):
        changes = {}
        order = _ORDER.get(kind)
        for field in order if order is not None else _field_order(node):
            value = getattr(node, field)
            vkind = type(value)
            if vkind is tuple or vkind is list:
                new = _sequence(value, (kind, field) in _BODIES, on_visit, on_leave, skip)
                if new is not None:
                    changes[field] = new
            elif value is not None and vkind is not cst.MaybeSentinel:
                new = _transform(value, on_visit, on_leave, skip)
                if new is not value:
                    changes[field] = _single(kind, field, value, new)
        if changes:
            updated = dataclasses.replace(node, **changes)  # (validated, as libcst's rebuild)
    result = on_leave(node, updated)
    returned = _RETURNED.get(type(result))
    if returned is None:  # (libcst's CSTNode is an ABC: its isinstance is slow, asked once per type here)
        returned = _RETURNED[type(result)] = isinstance(result, (cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel))
    if not returned:
        raise cst.CSTValidationError("Expected a node of type CSTNode or a RemovalSentinel, "
                                     f"but got a return value of {type(result).__name__}")
    return result


_RETURNED = {}  # node type -> whether on_leave may return one (unannotated: test_fast_transform edits this file)


def _single(kind: type, field: str, old, new):
    """What a one-node field holds once its child's visit returned `new` (libcst's visit_required,
    visit_optional and visit_sentinel, told apart by the field's default)."""
    if isinstance(new, cst.FlattenSentinel):
        raise TypeError(f"We got a FlattenSentinel while visiting a {type(old).__name__}. This node's parent "
                        "does not allow for it to be it to be replaced with a sequence.")
    if not isinstance(new, cst.RemovalSentinel):
        return new
    default = kind.__dataclass_fields__[field].default
    if default is None or default is cst.MaybeSentinel.DEFAULT:
        return default
    raise TypeError(f"We got a RemovalSentinel while visiting a {type(old).__name__}. This node's parent "
                    "does not allow it to be removed.")


def _sequence(children, body: bool, on_visit, on_leave, skip: bool) -> tuple | None:
    """The children visited, removed ones left out and flattened ones spread (libcst's
    visit_sequence; visit_body_sequence for a body, which also drops a statement line emptied by
    its children's removal); None when every child came back as it went in."""
    out, changed = [], False
    for child in children:
        new = _transform(child, on_visit, on_leave, skip)
        if new is child:
            out.append(child)
            continue
        changed = True
        if isinstance(new, cst.RemovalSentinel):
            continue
        for item in (new if isinstance(new, cst.FlattenSentinel) else (new,)):
            if not (body and not child._is_removable() and item._is_removable()):
                out.append(item)
    return tuple(out) if changed else None
