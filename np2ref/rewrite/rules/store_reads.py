"""Element reads that feed a store into the same array: `A[i, i] = np.sqrt(A[i, i])`.

What: in a plain store `A[idx] = value` into a written array, each element read of A itself in
the value (`A[i, i]`, every index entry a single integer expression) is marked; where it goes
through the checked read it is emitted `npr_get(A, feeds_store=True)[i, i]`. Why: an element
read just after a store into the same element may be taken from the stored value or read back
from the array (rt/views.py `_npr_element_read`); XLA:CPU updates in place without copies when a
value feeding a store into the same array is the stored one (Cholesky's `A[i, i] -= ...;
A[i, i] = np.sqrt(A[i, i])`: no copy of A a step), and when any other value (a scalar
accumulator, iir's `e += y[n] * y[n]`) is read back from the array. The translator knows which
statement a read is in; the runtime does not (it read the converted code's bytecode before).
Exact: both reads are the same value; the mark is a choice of speed only. Marked also: each item
of `y[n], z[n] = np.sqrt(y[n]), 1.0` for its own target, the arms of a ternary (`u[n] = u[n] ** 2
if u[n] < 0.5 else u[n]`: its test feeds a decision, left unmarked; marked, XLA copied u twice a
trip). Not marked: an `op=` (the proxy's read of the target comes first), several targets
(`a = A[i] = ...`), reads in a lambda or a comprehension (a scope of their own).
"""

from __future__ import annotations

import libcst as cst

from ..registry import plans

_SCOPES = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@plans(cst.Assign, order=31)
def plan_store_reads(node: cst.Assign, ctx) -> None:
    """After plan_assign (order 30) has marked the target's base a store proxy."""
    if len(node.targets) != 1:
        return
    for target, value in _pairs(node.targets[0].target, node.value):
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) \
                and target.value in ctx.m.store_bases:
            ctx.m.store_reads.update(_element_reads(value, target.value.value))


def _pairs(target, value):
    """(target, the value stored there): `a[i], b[j] = u, v` item by item."""
    if isinstance(target, (cst.Tuple, cst.List)):
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements) and not any(
                isinstance(e, (cst.StarredElement)) for e in (*target.elements, *value.elements)):
            for t, v in zip(target.elements, value.elements):
                yield from _pairs(t.value, v.value)
        return
    yield target, value


def _element_reads(node: cst.CSTNode, name: str):
    """Subscripts `name[e, ...]` of single index expressions under node, outside nested scopes."""
    if isinstance(node, _SCOPES):
        return
    if isinstance(node, cst.IfExp):  # (its test feeds a decision, not the store)
        yield from _element_reads(node.body, name)
        yield from _element_reads(node.orelse, name)
        return
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == name \
            and all(isinstance(e.slice, cst.Index) and e.slice.star is None for e in node.slice):
        yield node
    for child in node.children:
        yield from _element_reads(child, name)
