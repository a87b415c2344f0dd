"""MaskGuard: the masked reads of a masked store or selection, computed on whole arrays, that
reach an operation whose derivative can be infinite, emitted as `npr_mask_guard(b, m)`.

What: in `inv[m] = 1.0 / r2[m]` the division runs over the whole of `r2`, the elements `m`
leaves out included; where one of those is a pole (an excluded self-pair's `r2 == 0`),
`jax.grad` multiplies its zero cotangent by an infinite derivative and gets NaN, where NumPy's
program (and its central differences) has 0. Example output:
`npr_mask_store(inv, m, 1.0 / npr_mask_guard(r2, m), scalars=())`. Exact: the guard replaces
only the elements the mask leaves out (by the first selected one), which the store and the
reduction discard; every kept value is NumPy's.
"""

from __future__ import annotations

import libcst as cst


# NumPy functions with a pole or an infinite derivative in their argument (the divisor of divide)
_SINGULAR_CALLS = {"numpy.log": 0, "numpy.log2": 0, "numpy.log10": 0, "numpy.log1p": 0, "numpy.sqrt": 0,
                   "numpy.cbrt": 0, "numpy.reciprocal": 0, "numpy.arctanh": 0, "numpy.arcsin": 0,
                   "numpy.arccos": 0, "numpy.power": 0, "numpy.float_power": 0, "numpy.divide": 1,
                   "numpy.true_divide": 1, "numpy.floor_divide": 1, "numpy.remainder": 1, "numpy.mod": 1}


def guard_singular(ctx, value: cst.BaseExpression, masked) -> None:
    """Mark the masked reads of `masked` that reach, in `value`, an operation whose derivative
    can be infinite (a divisor, the base of a power other than a non-negative integer literal,
    the argument of log or sqrt): computed on whole arrays, an element the mask leaves out
    could meet the pole, and jax.grad would multiply its zero cotangent by infinity (NaN).
    Emitted as npr_mask_guard(b, m): the left-out elements replaced by a selected one."""
    reads = {n for n in masked if isinstance(n, cst.Subscript)}
    if reads:
        ctx.m.mask_guard.update(_singular_reads(value, reads, ctx.imports, ctx.locals, False))


def guard_selections(ctx, owner: cst.CSTNode, value: cst.BaseExpression, names) -> None:
    """Mark the selection names (`v = x[m]`, rules/selections.py) that reach a pole in `value`,
    as guard_singular does for masked reads: the value of `owner` (a masked store, a selection
    binding, a reduction) then takes them as `npr_unselect(v, guard=True)`."""
    found = _singular_reads(value, lambda n: isinstance(n, cst.Name) and n.value in names, ctx.imports,
                            ctx.locals, False)
    if found:
        ctx.m.guarded_selections[owner] = frozenset(n.value for n in found)


def _singular_reads(node, reads, imports, local_names, inside: bool) -> list:
    """The nodes among `reads` (a set, or a predicate) in a position of `node` where a
    derivative can be infinite."""
    if node in reads if not callable(reads) else reads(node):
        return [node] if inside else []
    if isinstance(node, cst.BinaryOperation):
        op = node.operator
        if isinstance(op, (cst.Divide, cst.FloorDivide, cst.Modulo)):
            return _singular_reads(node.left, reads, imports, local_names, inside) + \
                _singular_reads(node.right, reads, imports, local_names, True)
        if isinstance(op, cst.Power):
            safe = isinstance(node.right, cst.Integer) and node.right.evaluated_value >= 0
            return _singular_reads(node.left, reads, imports, local_names, inside or not safe) + \
                _singular_reads(node.right, reads, imports, local_names, inside)
    if isinstance(node, cst.Call):
        position = _SINGULAR_CALLS.get(imports.qualify_numpy(node.func, local_names))
        if position is not None:
            return [n for i, a in enumerate(node.args)
                    for n in _singular_reads(a.value, reads, imports, local_names, inside or i == position)]
    return [n for child in node.children for n in _singular_reads(child, reads, imports, local_names, inside)]
