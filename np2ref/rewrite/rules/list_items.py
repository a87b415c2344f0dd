"""Parameters read only item by item: `for k in ks`, `ks[0]`, `a, b = ks`, `len(ks)`.

What: a list of Python floats (or ints) passed for such a parameter hands the function Python
numbers, weakly typed in NumPy's promotion (NEP 50): `x32 * ks[0]` is float32, `repr(k)` is
`0.5`. npr_jit makes every other list argument one array, as NumPy computes with it
(np.asarray: float64, strongly typed), which is right for `np.sum(ks)` or `x * ks` but made each
item a float64 scalar (`x32 * ks[0]` float64, `repr(k)` `np.float64(0.5)`). The parameters found
here (npr_jit's `items=`) are passed as a weakly typed array instead (rt/calls.py), whose items
are Python numbers to JAX's promotion too. Any other use of the name (an argument to a call
other than len, zip or enumerate in a `for`, an operand, a slice `ks[1:]`, a rebinding) keeps the
parameter out: its array-wide uses need NumPy's strongly typed array. Exact where it applies.
"""

from __future__ import annotations

import libcst as cst

from ...analysis.aliases import FunctionFacts
from ...analysis.nodes import nodes_of

_ITERATORS = frozenset({"zip", "enumerate", "reversed"})  # `for a, b in zip(ks, vs)`: items again


def item_params(f: FunctionFacts) -> tuple[str, ...]:
    """The parameters of `f` (not written, not rebound) whose every read is an item read (made
    once per function, FunctionFacts.derived: the rewrite asks three times, issue 43)."""
    found = f.derived.get("item_params")
    if found is None:
        found = f.derived["item_params"] = _item_params(f)
    return found


def _item_params(f: FunctionFacts) -> tuple[str, ...]:
    names = [p for p in f.params if p not in f.mutated_params]
    if not names:
        return ()
    allowed = _item_reads(f.node.body)
    uses: dict[str, list] = {p: [] for p in names}
    for node in nodes_of(f.node.body, cst.Name):
        if node.value in uses:
            uses[node.value].append(node)
    return tuple(p for p in names if uses[p] and all(id(n) in allowed for n in uses[p]))


def _item_reads(body) -> set[int]:
    """ids of the Name nodes in `body` read as a sequence of items."""
    allowed: set[int] = set()
    for node in nodes_of(body, (cst.Subscript, cst.For, cst.CompFor, cst.Call, cst.Assign)):
        if isinstance(node, cst.Subscript):
            if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                    and node.slice[0].slice.star is None:
                allowed.add(id(node.value))
        elif isinstance(node, (cst.For, cst.CompFor)):
            allowed.update(_iterated(node.iter))
        elif isinstance(node, cst.Call):
            if isinstance(node.func, cst.Name) and node.func.value in ("len", "max", "min", "sum") \
                    and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star:
                allowed.add(id(node.args[0].value))  # (`max(ks)`: one of its items, a Python number)
        elif all(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
            allowed.add(id(node.value))  # `a, b = ks`
    return allowed


def _iterated(it) -> list[int]:
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in _ITERATORS:
        return [id(a.value) for a in it.args if a.keyword is None and a.star == ""]
    return [id(it)]
