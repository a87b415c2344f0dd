"""Subscript reads: the form a subscript takes in the output.

A view of a ref that is written through stays a reference (`npr_sub(u, i)`, rules/views.py); a
masked operand of a mask store is the whole array (rules/mask_store.py); the base of a store is
the store proxy (`npr_at(u)[i] = v`, rules/stores.py). A read with an integer index that may be
out of range goes through `npr_get` (NumPy raises IndexError where JAX clamps); a list index
becomes an array (JAX wants one for a fancy index; NumPy means the same).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.names import ImportMap
from ...emit import jaxnames as J
from ..registry import emits
from ..syntax import whole_load_base


@emits(cst.Subscript)
def emit_subscript(original: cst.Subscript, updated: cst.Subscript, ctx):
    updated = updated.with_changes(slice=[_list_index(e) for e in updated.slice])
    if original in ctx.m.ref_form:
        return J.call(J.SUB, updated.value, J.index_value(updated.slice))
    if original in ctx.m.unmask:
        return updated.value
    if original.value in ctx.m.store_bases:
        return updated.with_changes(value=J.call(J.STORE_PROXY, updated.value))
    if original in ctx.targets or not _may_raise(original, ctx.imports, frozenset(ctx.f.roots)):
        return updated
    # an integer index that may be out of range: NumPy raises IndexError where JAX clamps
    return updated.with_changes(value=J.call(J.GET, whole_load_base(updated.value)))


def _list_index(element: cst.SubscriptElement) -> cst.SubscriptElement:
    """`a[[0, 2]]`: JAX wants an array, not a list, for a fancy index (NumPy means the same)."""
    if isinstance(element.slice, cst.Index) and isinstance(element.slice.value, cst.List):
        lst = element.slice.value
        if not lst.elements:  # NumPy reads `[]` as an empty integer index
            return element.with_changes(slice=cst.Index(J.call(f"{J.NP}.array", lst,
                                                               dtype=J.name(f"{J.NP}.intp"))))
        literal = all(isinstance(e.value, (cst.Integer, cst.Name)) and not isinstance(e.value, cst.Name)
                      or isinstance(e.value, cst.UnaryOperation) for e in lst.elements)
        func = f"{J.NP}.array" if literal else J.INDEX_LIST  # a traced entry needs a traced array
        return element.with_changes(slice=cst.Index(J.call(func, lst)))
    return element


def _may_raise(node: cst.Subscript, imports: ImportMap, local_names) -> bool:
    """Whether reading `node` may index an array out of range: an index entry other than a slice,
    `...`, None, np.newaxis, 0 or -1 (in range of any axis with an element; JAX raises for an
    empty one). Subscripts of `x.shape`/`x.strides` and string keys index no array."""
    if isinstance(node.value, cst.Attribute) and node.value.attr.value in ("shape", "strides"):
        return False
    for element in node.slice:
        s = element.slice
        if isinstance(s, cst.Slice):
            continue
        v = s.value
        if s.star is not None:
            return True
        if isinstance(v, cst.Ellipsis) or (isinstance(v, cst.Name) and v.value == "None"):
            continue
        if isinstance(v, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return False
        if isinstance(v, cst.Integer) and v.evaluated_value == 0:
            continue
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus) and \
                isinstance(v.expression, cst.Integer) and v.expression.evaluated_value == 1:
            continue
        if imports.qualify_numpy(v, local_names) == "numpy.newaxis":
            continue
        return True
    return False
