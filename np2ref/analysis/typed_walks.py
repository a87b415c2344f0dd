"""nodes_of's tables (analysis/nodes.py): for a large tree already walked, the positions of each
node type in its walk, so that a question about some kinds of node reads their positions in the
tree's run instead of passing over every node of it (issue 43: nodes_of is asked ~26 times a
function)."""

from __future__ import annotations

import bisect

# id(a walk) -> (the walk, each node type's positions in it, ascending; by kinds asked, the lists
# of the types that are such kinds): made at the first question of a large tree in the walk, let
# go with the walk's index entries (nodes._TREES)
_TYPED: dict[int, tuple[list, dict[type, list[int]], dict]] = {}


def typed_runs(span: tuple[list, int, int], kinds, table: dict) -> list[list[int]]:
    """The positions in span's walk of the nodes of `kinds` in its run [start, end), one
    ascending list per node type met there (none: no such node). The walk's types and their
    positions are noted once per walk (issue 43: nodes_of asked ~26 times a function, each
    question a pass over every node of it)."""
    order, start, end = span
    typed = _TYPED.get(id(order))
    if typed is None or typed[0] is not order:
        by_type: dict[type, list[int]] = {}
        for i, n in enumerate(order):
            where = by_type.get(type(n))
            if where is None:
                where = by_type[type(n)] = []
            where.append(i)
        typed = _TYPED[id(order)] = (order, by_type, {})
    lists = typed[2].get(kinds)
    if lists is None:
        lists = []
        for kind, where in typed[1].items():
            hit = table.get(kind)
            if hit is None:
                hit = table[kind] = issubclass(kind, kinds)
            if hit:
                lists.append(where)
        typed[2][kinds] = lists
    return runs_between(lists, start, end)


def runs_between(lists, start: int, end: int) -> list:
    """The positions in [start, end) of each sorted list of positions (one per node type), the
    empty runs left out."""
    runs = []
    for where in lists:
        lo = bisect.bisect_left(where, start)
        hi = bisect.bisect_left(where, end, lo)
        if lo < hi:
            runs.append(where[lo:hi])
    return runs


def _table(kinds) -> dict:
    table = _KINDS.get(kinds)
    if table is None:
        table = _KINDS[kinds] = {}
    return table


_KINDS: dict = {}  # kinds (a type or a tuple of them) -> {node type: whether it is one of them}
