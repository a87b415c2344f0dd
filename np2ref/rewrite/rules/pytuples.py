"""Tuples of Python numbers read item by item: `v = (dt, 0.0)`, then `v = (v[0] + v[1], v[1])`.

What: a local every binding of which is a tuple display of one width (no starred item, no `op=`) has
its item reads by an integer literal (`v[0]`, `v[-1]`) taken for what that item is: per position, the
join of what every display puts there (rules/pyscalars.py's fixed point, `settle`), None where one of
them is no Python scalar. So `v[0] + v[1]` is a Python float where dt is one, returned as Python's
(rules/pyreturns.py), and Python's operators follow for it (`v[0] / v[1]`: ZeroDivisionError, npr_pyop).
Such a read cannot index out of range either (`in_range`: no npr_get, rules/reads.py).

Why: the classifier did not read an item of a tuple-valued name, so `v[0] + v[1]` of `v = (dt, 0.0)`
came back np.float64 where NumPy's is the Python float (fuzz_393a7f9e93); and `v[1]` became
`npr_get(v)[1]`, which made a function with no array work a traced one.

Exact or not: values are unchanged; which of Python's and NumPy's scalar types an item has.
"""

from __future__ import annotations

import libcst as cst

from ..syntax import walk


def tuple_widths(f) -> dict[str, int]:
    """{name: width} for each local (not a parameter) every binding of which is a tuple display of
    one width, without starred items (kept in f.derived: read for each subscript)."""
    found = f.derived.get("tuple_widths")
    if found is not None:
        return found
    bindings: dict[str, list] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append(value)
    out = {}
    for name, values in bindings.items():
        if name in f.params or not all(type(v) is cst.Tuple and all(type(e) is cst.Element for e in v.elements)
                                       for v in values):
            continue
        widths = {len(v.elements) for v in values}
        if len(widths) == 1:
            out[name] = widths.pop()
    f.derived["tuple_widths"] = out
    return out


def candidates(f) -> dict[str, list]:
    """{name: its tuple displays} for the names tuple_widths finds."""
    widths = tuple_widths(f)
    displays: dict[str, list] = {n: [] for n in widths}
    for target, value in f.bindings:
        if isinstance(target, cst.Name) and target.value in widths:
            displays[target.value].append(value)
    return displays


def position(node: cst.Subscript, width: int) -> int | None:
    """The item `node` (`v[k]`) reads, k an integer literal within `width`, else None."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value, sign = node.slice[0].slice.value, 1
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value, sign = value.expression, -1
    if not isinstance(value, cst.Integer):
        return None
    k = sign * int(value.evaluated_value)
    return k % width if -width <= k < width else None


def item(tuples: dict, node: cst.Subscript):
    """What the classifier knows of `v[k]` (a Scalar, or None), v one of `tuples`."""
    items = tuples[node.value.value]
    k = position(node, len(items))
    return None if k is None else items[k]


def in_range(f, node: cst.Subscript) -> bool:
    """`v[k]` of a local tuple display name, k within its width: no IndexError."""
    if type(node.value) is not cst.Name:
        return False
    width = tuple_widths(f).get(node.value.value)
    return width is not None and position(node, width) is not None


def read_items(f, displays: dict, passed) -> bool:
    """Whether a tuple display name holding a parameter never rebound (`passed`) has its items read
    (`v[0]`): then the function has Python numbers to follow (rules/pyscalars.py `_scan`)."""
    holding = {n for n, ds in displays.items() if any(type(x) is cst.Name and x.value in passed
                                                      for d in ds for x in walk(d))}
    return bool(holding) and any(type(n) is cst.Subscript and type(n.value) is cst.Name and n.value.value in holding
                                 for n in walk(f.node))


def settle(displays: dict, classify, tuples: dict) -> bool:
    """One round of the fixed point: each name's items, per position the join of what its displays
    put there (None where one is no Python scalar); a name none of whose items is one is dropped.
    Whether `tuples` changed."""
    new = {}
    for name, values in displays.items():
        if name not in tuples:
            continue
        items = []
        for column in zip(*(v.elements for v in values)):
            kinds = [classify(e.value) for e in column]
            joined = None if None in kinds else kinds[0]
            for k in kinds[1:] if joined is not None else ():
                joined = joined.join(k)
            items.append(joined)
        if any(i is not None for i in items):
            new[name] = tuple(items)
    changed = new != tuples
    tuples.clear()
    tuples.update(new)
    return changed
