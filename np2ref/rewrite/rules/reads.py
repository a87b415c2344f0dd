"""Subscript reads: the form a subscript takes in the output.

A view of a ref that is written through stays a reference (`npr_sub(u, i)`, rules/views.py); a
masked operand of a mask store is the whole array (rules/mask_store.py); the base of a store is
the store proxy (`npr_at(u)[i] = v`, rules/stores.py). A read with an integer index that may be
out of range goes through `npr_get` (NumPy raises IndexError where JAX clamps); a list index
becomes an array (JAX wants one for a fancy index; NumPy means the same).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.aliases import index_names_to_check
from ...analysis.names import ImportMap
from ...emit import jaxnames as J
from ..registry import emits
from ..syntax import walk, whole_load_base
from .introspection import asks
from .kept import emit_kept_read, emit_reindex
from .mask_index import guard_mask, slices_keyword, unmasked
from .pytuples import in_range


@emits(cst.Subscript)
def emit_subscript(original: cst.Subscript, updated: cst.Subscript, ctx):
    result = _subscript(original, updated, ctx)
    if original in ctx.f.element_reads:  # `m = x[i, j]` of a written x: an element (analysis/aliases.py)
        checked = index_names_to_check(updated, ctx.f.for_names)
        return J.call(J.SCALAR_READ, result, J.string(cst.Module([]).code_for_node(original)), *checked)
    if isinstance(result, cst.Subscript) and original not in ctx.targets:
        if any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis) for e in original.slice) \
                and not any(isinstance(e.slice, cst.Slice) for e in original.slice):
            return J.call(J.ARRAY_MADE, result)  # `x[0, ...]`: NumPy's 0-d array, not a scalar
        if asks(ctx) or _empty_index(original):  # (JAX hands `a[()]` of a 0-d array back as it is)
            return J.call(J.SCALAR_OF, result)  # `a[()]`, `x[0]`: NumPy's scalar where 0-d, even of a 0-d array
    return result


def _empty_index(node: cst.Subscript) -> bool:
    """`a[()]`."""
    return len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
        and isinstance(node.slice[0].slice.value, cst.Tuple) and not node.slice[0].slice.value.elements


def _subscript(original: cst.Subscript, updated: cst.Subscript, ctx):
    fixed = [_list_index(e) for e in updated.slice]
    if any(new is not old for new, old in zip(fixed, updated.slice)):  # (no copy of every subscript)
        updated = updated.with_changes(slice=fixed)
    if original in ctx.m.selections:  # `v = x[m]`, v only reduced (rules/mask_store.py)
        return J.call(J.SELECT, whole_load_base(updated.value), updated.slice[0].slice.value, **slices_keyword(updated))
    if original in ctx.m.kept_reads:  # `v = X[m, :]`, v only reindexed and stored back (rules/kept.py)
        return emit_kept_read(updated, ctx.m.kept_reads[original])
    if original in ctx.m.kept_reindex:
        return emit_reindex(updated)
    if original in ctx.m.ref_form:  # a window stays one (`npr_sub(x, npr_win(i, w))`: rt/win_views.py)
        if _loop_slices(original, ctx.f.for_names):
            updated = updated.with_changes(slice=[_window(e) for e in updated.slice])
        return J.call(J.SUB, updated.value, J.index_value(updated.slice))
    if original in ctx.m.unmask:
        whole = ctx.unmasked_forms[original] = unmasked(updated)  # (listed by whole_forms.whole_operands)
        mask = guard_mask(updated) if original in ctx.m.mask_guard else None
        if original in ctx.m.unmask_read:  # the mask may be an integer index: decided when traced
            guard = {"guard": cst.Name("True")} if mask is not None else {}
            return J.call(J.UNMASK, whole, updated.slice[0].slice.value, **guard)
        return whole if mask is None else J.call(J.MASK_GUARD, whole, mask)
    loop = _loop_slices(original, _traced_bound_names(ctx.f), data=True)
    if loop:  # slices whose bounds move with a loop variable (rt/windows.py)
        updated = updated.with_changes(slice=[_window(e) for e in updated.slice])
    if original.value in ctx.m.store_bases:
        return updated.with_changes(value=J.call(J.STORE_PROXY, updated.value))
    if original in ctx.targets or not (loop or _may_raise(original, ctx.imports, frozenset(ctx.f.roots))) \
            or in_range(ctx.f, original):  # (`v[1]` of `v = (dt, 0.0)`: no IndexError)
        return updated
    # an integer index that may be out of range: NumPy raises IndexError where JAX clamps
    feeds = {"feeds_store": cst.Name("True")} if original in ctx.m.store_reads else {}  # (rules/store_reads.py)
    return updated.with_changes(value=J.call(J.GET, whole_load_base(updated.value), **feeds))


def _loop_slices(node: cst.Subscript, loop_names, data: bool = False) -> bool:
    """Whether a slice in node's index has a bound that names a loop variable (`x[i:i + w]`,
    `A[k + 1:, k]`, `data[p[i]:p[i + 1]]`), or with `data` a value read from an array
    (`order[starts[c]:ends[c]]`): its bounds are traced in a lax loop, so the read goes through
    npr_get, which reads such slices exactly (rt/windows.py)."""
    return any(isinstance(e.slice, cst.Slice) and any(
        b is not None and any(isinstance(n, cst.Name) and n.value in loop_names or data and _array_read(n)
                              for n in walk(b))
        for b in (e.slice.lower, e.slice.upper)) for e in node.slice)


def _array_read(node) -> bool:
    """A subscript that may read array data (not `x.shape[0]`, `x.strides[1]`)."""
    return isinstance(node, cst.Subscript) and not (
        isinstance(node.value, cst.Attribute) and node.value.attr.value in ("shape", "strides"))


def _traced_bound_names(f) -> frozenset:
    """The loop variables and the names bound from them or from array reads (`c = i % 3`,
    `lo = starts[c]`), to a fixed point: a slice bounded by one has bounds known only when the
    program runs (made once per function: FunctionFacts.derived)."""
    found = f.derived.get("traced_bound_names")
    if found is None:
        found = set(f.for_names)
        grew = True
        while grew:
            grew = False
            for target, value in f.bindings:
                if isinstance(target, cst.Name) and target.value not in found and value is not None and any(
                        isinstance(n, cst.Name) and n.value in found or _array_read(n) for n in walk(value)):
                    found.add(target.value)
                    grew = True
        found = f.derived["traced_bound_names"] = frozenset(found)
    return found


def _offset(expr: cst.BaseExpression):
    """(X, c) for `X + c`, `X - c`, `c + X` with c an integer literal, else (expr, 0)."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)):
        if isinstance(expr.right, cst.Integer):
            c = expr.right.evaluated_value
            return expr.left, c if isinstance(expr.operator, cst.Add) else -c
        if isinstance(expr.left, cst.Integer) and isinstance(expr.operator, cst.Add):
            return expr.right, expr.left.evaluated_value
    return expr, 0


def _window(element: cst.SubscriptElement) -> cst.SubscriptElement:
    """`i:i + w` -> `npr_win(i, w)`, `i - 1:i + 2` -> `npr_win(i, 3, -1)`: a slice of a static
    width at a start that moves (a window; NumPy's clipping kept by the runtime)."""
    s = element.slice
    if not isinstance(s, cst.Slice) or s.step is not None or s.lower is None or s.upper is None:
        return element
    lower, upper = s.lower, s.upper
    (a, c), (b, d) = _offset(lower), _offset(upper)
    if not a.deep_equals(b) or d < c:
        if isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add) and \
                upper.left.deep_equals(lower):
            return element.with_changes(slice=cst.Index(J.call(J.WINDOW, lower, upper.right)))
        return element
    args = [a, cst.Integer(str(d - c))] + ([cst.Integer(str(c)) if c >= 0 else
                                            cst.UnaryOperation(cst.Minus(), cst.Integer(str(-c)))] if c else [])
    return element.with_changes(slice=cst.Index(J.call(J.WINDOW, *args)))


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
