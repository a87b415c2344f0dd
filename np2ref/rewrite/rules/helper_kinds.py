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
