"""What a module helper returns, as the caller's Python-scalar analysis reads it
(rules/pyscalars.py): `n = count(hist)`, `road, passed = step(...)`, `total += count(x)` where
every `return` of the helper gives a Python number (rules/pyreturns.py note_kinds, on the helpers
rewritten before the caller). Split from pyscalars.py."""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import nodes_of


def unpacked_kinds(ctx, f) -> dict[int, str]:
    """id(name) -> 'int' or 'float' for each name of `a, n = helper(...)` (or `n = helper(...)`)
    that a module function rewritten before this one returns as a Python number there on every
    path (pyreturns.note_kinds)."""
    found = {}
    for node in nodes_of(f.node, cst.Assign):
        if len(node.targets) != 1 or not isinstance(node.value, cst.Call) or not isinstance(node.value.func, cst.Name):
            continue
        kinds, target = callee_kinds(ctx, node.value.func.value), node.targets[0].target
        if isinstance(kinds, str) and isinstance(target, cst.Name):  # `n = count(hist)`: one Python number
            found[id(target)] = kinds
            continue
        elements = target.elements if isinstance(target, cst.Tuple) else None
        if isinstance(kinds, tuple) and elements is not None and len(kinds) == len(elements):
            found.update((id(e.value), k) for e, k in zip(elements, kinds)
                         if k is not None and isinstance(e.value, cst.Name))
    return found


def callee_kinds(ctx, name: str) -> tuple | None:
    """The item kinds every `return` of module function `name` gives, when all its returns were
    rewritten (it comes before the caller) and agree; None otherwise."""
    noted = getattr(ctx, "returned_kinds", {}).get(name)
    facts = ctx.facts.get(name) if name not in ctx.f.roots and name not in ctx.f.params else None
    if not noted or facts is None or any(k != noted[0] for k in noted) \
            or len(noted) != len(nodes_of(facts.node, cst.Return)):
        return None
    return noted[0]


class Through:
    """What a helper returns where every `return` gives back parameters' own values, each `op=`'d by
    Python numbers only (`def scale(p): p *= 2; return p`; `def twice(p): return scale(p)`): a
    Python number where the caller passes one there (`positions`), an array passed is the array."""
    __slots__ = ("positions",)

    def __init__(self, positions):
        self.positions = tuple(sorted(set(positions)))

    def __eq__(self, other):
        return isinstance(other, Through) and other.positions == self.positions

    def __hash__(self):
        return hash(self.positions)


_NUMBER_OPS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign)  # (no ZeroDivisionError, no complex)


def through_parts(classify, args, kind: Through) -> list | None:
    """What the classifier knows of the arguments a Through helper gives back (`scale(t)`: t), each
    a parameter's value or not settled yet (no kinds); else None."""
    parts = [classify(args[i].value) if i < len(args) and args[i].keyword is None and not args[i].star else None
             for i in kind.positions]
    return None if None in parts or not all(p.passed or not p.kinds for p in parts) else parts


def through(ctx, expr) -> tuple[int, ...] | None:
    """The positions of the parameters whose values `expr` gives back as they are or `op=`'d by
    numbers (a parameter's name; a call of a Through helper passing such names), else None."""
    params = ctx.f.params
    if isinstance(expr, cst.Name) and expr.value in params:
        bound = [t for t, _ in ctx.f.bindings if isinstance(t, cst.Name) and t.value == expr.value]
        augs = [a for a in nodes_of(ctx.f.node, cst.AugAssign)
                if isinstance(a.target, cst.Name) and a.target.value == expr.value]
        if len(augs) != len(bound) or not all(isinstance(a.operator, _NUMBER_OPS) and _number(ctx, a.value)
                                              for a in augs):
            return None
        # (a parameter added in, `p += k`: its kind too, as NumPy's `+` of the two gives it)
        return (params.index(expr.value), *(params.index(a.value.value) for a in augs if isinstance(a.value, cst.Name)))
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.args \
            and not any(a.keyword is not None or a.star for a in expr.args):
        kind = callee_kinds(ctx, expr.func.value)
        if not isinstance(kind, Through) or kind.positions[-1] >= len(expr.args):
            return None
        parts = [through(ctx, expr.args[i].value) for i in kind.positions]
        return None if None in parts else tuple(i for p in parts for i in p)
    return None


def _number(ctx, expr) -> bool:
    """A number literal, or a parameter never rebound (`p *= k`: a Python number where one is passed)."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    return isinstance(expr, cst.Name) and expr.value in ctx.f.params and not any(
        isinstance(t, cst.Name) and t.value == expr.value for t, _ in ctx.f.bindings)
