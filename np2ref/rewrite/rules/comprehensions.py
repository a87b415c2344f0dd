"""ComprehensionToMap: `np.array([f(x) for x in X])` as one traced body mapped over X's rows.

What: a list comprehension that builds an array from the rows of an array is traced once, as
the body of a lax.map, instead of once per row (a trace that grew with the row count: 120,000
reductions traced for minutes, then compiled for minutes; NPR037 now stops such a trace).
    np.array([[np.sum((x - y) ** 2) for x in X] for y in Y])
 -> npr_np_array(npr_comp_map(lambda y: npr_comp_map(lambda x: jnp.sum((x - y) ** 2), X,
                                                      lambda: [...]), Y, lambda: [...]))
Exact: each row's value is computed by the same operations on the same shapes as the
comprehension's (a reduction reduces as it did: nothing is batched), in row order, and
np.array of equal-shaped arrays of one dtype is their stack, which lax.map returns. The
comprehension as written is kept beside it: npr_comp_map runs it instead (rt/comprehensions.py)
when X is not an array's rows (a list, a written array), when the body needs a row's
value in Python (a Python `if` on it, an index), changes a Python container, or gives anything
but one array of a strong dtype. Only a comprehension with one `for` over a name (or an
attribute or subscript of names), one target name and no `if` is mapped. A `range(...)` of
ints, names and their arithmetic is mapped over its values too (`[find(parent, k) for k in
range(n * n)]`), each given to the body as `range` gives it, a Python int (weakly typed), in
order: a body that writes writes as the loop does.
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits


@emits(cst.Call, order=12)
def emit_array_of_comprehension(original: cst.Call, updated: cst.Call, ctx):
    if len(original.args) != 1 or original.args[0].keyword is not None or original.args[0].star:
        return None
    if ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots)) != "numpy.array":
        return None
    mapped = _mapped(updated.args[0].value)
    if mapped is None:
        return None
    return cst.Call(J.name("npr_np_array"), [cst.Arg(mapped)])


def _mapped(comp) -> cst.BaseExpression | None:
    """npr_comp_map(lambda x: elt, X, lambda: comp) for a comprehension of the mapped form (its
    element mapped too when it is one), else None."""
    if not isinstance(comp, cst.ListComp) or comp.lpar or not _plain_for(comp.for_in):
        return None
    target = comp.for_in.target.value
    elt = _mapped(comp.elt) or comp.elt
    body = cst.Lambda(cst.Parameters([cst.Param(cst.Name(target))]), elt)
    fallback = cst.Lambda(cst.Parameters([]), comp)
    return J.call("npr_comp_map", body, comp.for_in.iter, fallback)


def _plain_for(clause: cst.CompFor) -> bool:
    return isinstance(clause.target, cst.Name) and not clause.ifs and clause.inner_for_in is None \
        and clause.asynchronous is None and _pure(clause.iter)


def _pure(expr) -> bool:
    """A name, or attributes and constant subscripts of one: evaluating it twice is harmless."""
    if isinstance(expr, cst.Name):
        return True
    if isinstance(expr, cst.Attribute):
        return _pure(expr.value)
    if isinstance(expr, cst.Subscript):
        return _pure(expr.value) and all(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, (cst.Integer, cst.Name))
                                         for e in expr.slice)
    return _range(expr)


def _range(expr) -> bool:
    """`range(...)` of ints, names, their attributes and arithmetic (`range(n * n)`)."""
    def plain(e):
        if isinstance(e, (cst.Integer, cst.Name, cst.Attribute, cst.Subscript)):
            return isinstance(e, cst.Integer) or _pure(e)
        if isinstance(e, cst.BinaryOperation):
            return plain(e.left) and plain(e.right)
        return isinstance(e, cst.UnaryOperation) and plain(e.expression)
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "range" \
        and 1 <= len(expr.args) <= 3 and all(a.keyword is None and not a.star and plain(a.value) for a in expr.args)
