"""Mirror copies at the end of an independent loop: `R[j, a] = R[a, j]` after the statements that
write the slot R[a, j] (a symmetric matrix filled from its upper half: covariance, correlation).

    for j in range(i, m):
        cov[i, j] = (d[:, i] * d[:, j]).sum() / (n - 1)
        cov[j, i] = cov[i, j]                         <- the mirror copy of the slot cov[i, j]

Why it is exact to run the loop as the lanes of the other statements (npr_vfor) followed by one
copy of the row a into the column a over the range: the statements before the copies touch R
only at their slot R[a, j'] (the lane proof, rewrite/lanes.py); R[a, j'] is R[j, a] only where
j' = a = j, in one iteration, so no iteration's slot is a place an earlier iteration's copy
wrote or a later one's copy reads before the loop gets there. The copies, in turn, read
R[a, j] (iteration j's own slot, final once iteration j's statements ran) and write R[j, a],
which no other copy reads (R[j, a] is R[a, j''] only where j = a = j''). Written as
`R[a_range, a] = R[a, a_range]` after the lanes, in any order, they write what the loop wrote.
"""

from __future__ import annotations

import libcst as cst


def trailing_mirrors(stmts, var: str) -> list[tuple[str, str]]:
    """(R, a) of each statement `R[var, a] = R[a, var]` at the end of the loop body stmts, a a
    name other than var (the body's other statements are the lane proof's to check)."""
    found = []
    for s in reversed(list(stmts)):
        pair = _mirror(s, var)
        if pair is None:
            break
        found.append(pair)
    return found[::-1]


def _mirror(stmt, var):
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return None
    assign = stmt.body[0]
    if len(assign.targets) != 1:
        return None
    target, value = _pair_of(assign.targets[0].target), _pair_of(assign.value)
    if target is None or value is None or target[0] != value[0]:
        return None
    (array, (first, second)), (_, (v_first, v_second)) = target, value
    if first != var or second == var or (v_first, v_second) != (second, first):
        return None
    return array, second


def _pair_of(expr):
    """(R, (x, y)) of `R[x, y]` with names x and y, else None."""
    if not (isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and len(expr.slice) == 2):
        return None
    names = [e.slice.value.value if isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Name)
             and not e.slice.star else None for e in expr.slice]
    return None if None in names else (expr.value.value, tuple(names))
