"""Reads beside an independent loop's slots that no earlier iteration wrote (rewrite/lanes.py):
`B[k + 1:, j]` beside the slot `B[k, j]` (rows apart from k), and on the loop variable's own axis
the positions only later iterations write (`B[i + 1:, j]` counting up, `a[:i]` counting down),
which the loop reads as they were before it, as every lane does.
"""

from __future__ import annotations

import libcst as cst


def code(elements) -> str:
    """The source of subscript elements, trailing whole slices left out (`R[i, :]` -> `i`)."""
    entries = list(elements)
    while entries and full_slice(entries[-1].slice):
        entries.pop()
    return ", ".join(cst.Module([]).code_for_node(e.slice).strip() for e in entries)


def full_slice(s) -> bool:
    return isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None


def is_name(v, name) -> bool:
    return isinstance(v, cst.Name) and v.value == name


def rows_apart(elements, slot, var, sign=0):
    """For a read `R[elements]` beside the slot `R[slot]`, where both indices agree before a
    position p: the name to keep >= 0 when the read's slice at p takes only positions no
    iteration writes, else None. At a position whose slot index is a name e fixed in the loop:
    `e + c:` (c > 0) or `:e`, positions apart from e while e >= 0 (npr_vfor checks that:
    `nonneg`; `:e - c` is not taken: at e < c it wraps round onto e). At the loop variable's
    own position (sign: the sign of the range's step, 0 when unknown): `var + c:` (c > 0) in an
    ascending loop, `:var` in a descending one, positions only later iterations write, so the
    loop reads them as they were before it, as every lane does; var is returned (npr_vfor
    keeps every iteration's var >= 0 itself)."""
    entries, slot = list(elements), list(slot)
    for p, e in enumerate(slot):
        if not isinstance(e.slice, cst.Index):
            return None
        if not isinstance(e.slice.value, cst.Name):
            continue
        own = e.slice.value.value == var
        if p >= len(entries) or code(entries[:p]) != code(slot[:p]) or not isinstance(entries[p].slice, cst.Slice):
            if own:
                return None
            continue
        cut, name = entries[p].slice, e.slice.value.value
        below = cut.step is None and cut.upper is None and (_plus(cut.lower, name) or 0) > 0
        above = cut.step is None and cut.lower is None and _plus(cut.upper, name) == 0
        if own:
            return name if below and sign > 0 or above and sign < 0 else None
        if below or above:
            return name
    return None


def step_sign(it) -> int:
    """1 or -1: the sign of `range(...)`'s step where the source shows it (no step, or an integer
    literal), else 0."""
    args = [a.value for a in it.args] if isinstance(it, cst.Call) else []
    if len(args) < 3:
        return 1
    step = args[2]
    if isinstance(step, cst.Integer):
        return 1 if int(step.value) > 0 else 0
    if isinstance(step, cst.UnaryOperation) and isinstance(step.operator, cst.Minus) and isinstance(step.expression, cst.Integer):
        return -1 if int(step.expression.value) > 0 else 0
    return 0


def _plus(expr, name):
    """c when expr is `name + c` / `name - c` / `name` (c an integer literal), else None."""
    if is_name(expr, name):
        return 0
    if isinstance(expr, cst.BinaryOperation) and is_name(expr.left, name) and isinstance(expr.right, cst.Integer) \
            and isinstance(expr.operator, (cst.Add, cst.Subtract)):
        return int(expr.right.value) * (1 if isinstance(expr.operator, cst.Add) else -1)
    return None
