"""WhereGuard: a branch of `np.where` that meets a pole, emitted as a function of a guard so that
jax.grad of the translation does not turn the branch np.where discards into NaN.

What: `np.where(x > 0, np.sqrt(x), 0.0)` computes sqrt on every element, the negative ones
included; np.where keeps 0.0 there, so NumPy's function (and its central differences) has
derivative 0, but jax.grad multiplies the zero cotangent of a discarded element by sqrt's
derivative there, NaN (the "double where" problem), and the whole gradient is NaN. A branch
with a pole in an elementwise position (a divisor, a log's or sqrt's argument, the base of a
power other than a non-negative integer literal: mask_guard._singular_reads' rules) becomes
`lambda _npr_g: <branch>` with each operand of its elementwise tree (names, reads, calls that
are not elementwise) passed through `_npr_g`:

    npr_where_guarded(x[...] > 0, lambda _npr_g: npr_np_sqrt(_npr_g(x[...])), 0.0)

Exact: rt/where_guard.py's guard replaces, only while the value is being differentiated, the
elements np.where discards (by one it keeps), and only where the condition broadcasts into the
operand's own shape; through an elementwise tree an element of the branch reads only the
operand elements at its own position, so every kept value is NumPy's. Otherwise the branch is
the very value it was (the condition is evaluated once, before the branches, as NumPy does).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.numpy_table import UFUNCS
from ...emit import jaxnames as J
from .mask_guard import _singular_reads

GUARD = "_npr_g"
_CONSTANTS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)


def guard_where(original: cst.Call, updated: cst.BaseExpression, ctx) -> cst.BaseExpression:
    """`npr_where_guarded(cond, lambda _npr_g: x', y)` for a three-argument np.where whose
    branch x (or y) meets a pole; `updated` as it is otherwise."""
    roots = frozenset(ctx.f.roots)
    if ctx.imports.qualify_numpy(original.func, roots) != "numpy.where" or not isinstance(updated, cst.Call) \
            or len(original.args) != 3 or len(updated.args) != 3 \
            or any(a.keyword is not None or a.star for a in (*original.args, *updated.args)):
        return updated
    args = list(updated.args)
    changed = False
    for k in (1, 2):
        branch = original.args[k].value
        if not _singular_reads(branch, lambda n: _operand(n, ctx, roots), ctx.imports, roots, False):
            continue
        guarded = _guard_operands(branch, args[k].value, ctx, roots)
        if guarded is not args[k].value:
            lam = cst.Lambda(cst.Parameters([cst.Param(cst.Name(GUARD))]), guarded)
            args[k] = args[k].with_changes(value=lam)
            changed = True
    if not changed:
        return updated
    return cst.Call(J.name(J.WHERE_GUARDED), [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args])


def _operand(node, ctx, roots) -> bool:
    """A value a pole may meet: anything but a literal and NumPy's elementwise operations."""
    if isinstance(node, cst.Call):
        return ctx.imports.qualify_numpy(node.func, roots) not in UFUNCS
    return not isinstance(node, (cst.BinaryOperation, cst.UnaryOperation, cst.Arg, *_CONSTANTS))


def _guard_operands(original, updated, ctx, roots):
    """`updated` with every operand of its elementwise tree passed through the guard: walked
    in step with `original`, where NumPy's elementwise operations are read; a node whose
    translation changed shape is an operand as a whole."""
    if isinstance(original, _CONSTANTS):
        return updated
    if isinstance(original, cst.BinaryOperation) and isinstance(updated, cst.BinaryOperation) \
            and not isinstance(original.operator, cst.MatrixMultiply):
        return updated.with_changes(left=_guard_operands(original.left, updated.left, ctx, roots),
                                    right=_guard_operands(original.right, updated.right, ctx, roots))
    if isinstance(original, cst.BinaryOperation) and _pyop(updated):
        # `1.0 / x` of a parameter x emitted `npr_pyop(1.0, '/', x, passed=True)` (rules/pyscalars.py):
        # its operands, not the quotient, are the tree's (guarded as a whole, the pole's NaN came back)
        a, op, b, *rest = updated.args
        return updated.with_changes(args=[a.with_changes(value=_guard_operands(original.left, a.value, ctx, roots)), op,
                                          b.with_changes(value=_guard_operands(original.right, b.value, ctx, roots)),
                                          *rest])
    if isinstance(original, cst.UnaryOperation) and isinstance(updated, cst.UnaryOperation) \
            and not isinstance(original.operator, cst.Not):
        return updated.with_changes(expression=_guard_operands(original.expression, updated.expression, ctx, roots))
    if isinstance(original, cst.Call) and isinstance(updated, cst.Call) and len(original.args) == len(updated.args) \
            and ctx.imports.qualify_numpy(original.func, roots) in UFUNCS \
            and all(a.keyword is None and not a.star for a in (*original.args, *updated.args)):
        return updated.with_changes(args=[u.with_changes(value=_guard_operands(o.value, u.value, ctx, roots))
                                          for o, u in zip(original.args, updated.args)])
    return J.call(GUARD, updated.with_changes(lpar=[], rpar=[]) if hasattr(updated, "lpar") else updated)


def _pyop(updated) -> bool:
    """`npr_pyop(a, '/', b, ...)`: a binary operation np2ref emits through Python's rules."""
    return isinstance(updated, cst.Call) and isinstance(updated.func, cst.Name) and updated.func.value == J.PYOP \
        and len(updated.args) >= 3 and all(a.keyword is None and not a.star for a in updated.args[:3])
