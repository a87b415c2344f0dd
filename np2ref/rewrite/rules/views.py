"""Views: which expressions are emitted as a reference (a Ref, or a view of one) and which as a
value that must become a Ref of its own.

What: `u[1:]`, `u.T`, `np.transpose(u)`, `u.reshape(...)` over a ref name `u` stay references
(`npr_sub(u, i)`, `npr_T(u)`, ...) wherever the value is written through or passed to a function
that writes it; a fresh value in such a place is wrapped `npr_own(expr)` (`jax.new_ref(expr)` for a
NumPy allocation). Why: NumPy writes through a view into its base; a JAX array has no base.
Exact: the view helpers index the one Ref, so writes land where NumPy's do; a view chain that may
come out a copy (a fancy index, reshape of a non-contiguous view) is owned when it is written
(`may_copy`). Refused (NPR202/NPR205): writes to module-level arrays and through views that are
not modelled.
"""

from __future__ import annotations

import libcst as cst

from ...analysis import effects as fx
from ...analysis.names import dotted
from ...emit import jaxnames as J
from ..registry import emits, plans
from ..syntax import plain, positional


# -- planning helpers: every family that writes calls these ------------------------------------
def chain_name(ctx, expr: cst.BaseExpression) -> cst.Name | None:
    """The name at the bottom of a view chain (`u` in `u[1:].T`), if any."""
    while True:
        if isinstance(expr, cst.Name):
            return expr
        if isinstance(expr, (cst.Subscript, cst.Attribute)):
            expr = expr.value
        elif isinstance(expr, cst.Call):
            if isinstance(expr.func, cst.Attribute) and ctx.numpy_name(expr.func) is None:
                expr = expr.func.value
            else:
                args = positional(expr)
                if not args:
                    return None
                expr = args[0].value
        else:
            return None


def mark_ref(ctx, expr: cst.BaseExpression) -> bool:
    """Mark `expr` to be emitted as a reference, if it is a view chain over a ref name."""
    m = ctx.m
    if isinstance(expr, cst.Name):
        if ctx.is_ref(expr.value):
            m.no_load.add(expr)
            return True
        return False
    if isinstance(expr, cst.Subscript):
        if mark_ref(ctx, expr.value):
            m.ref_form.add(expr)
            return True
        return False
    if isinstance(expr, cst.IfExp):
        body, orelse = mark_ref(ctx, expr.body), mark_ref(ctx, expr.orelse)
        if body or orelse:  # a branch that is not a ref is a fresh value: own it
            if not body:
                m.own_form.add(expr.body)
            if not orelse:
                m.own_form.add(expr.orelse)
            return True
        return False
    if isinstance(expr, cst.Attribute) and expr.attr.value in fx.VIEW_ATTRIBUTES:
        if mark_ref(ctx, expr.value):
            m.ref_form.add(expr)
            return True
        return False
    if isinstance(expr, cst.Call):
        func = expr.func
        qual = ctx.numpy_name(func)
        if fx.view_call(qual, expr):
            args = positional(expr)
            if args and mark_ref(ctx, args[0].value):
                m.ref_form.add(expr)
                m.skip_numpy.add(func)
                return True
            return False
        if qual is None and isinstance(func, cst.Attribute) and func.attr.value in fx.VIEW_METHODS:
            if mark_ref(ctx, func.value):
                m.ref_form.add(expr)
                return True
    return False


def mark_ref_or_own(ctx, expr: cst.BaseExpression) -> None:
    if not mark_ref(ctx, expr):
        ctx.m.own_form.add(expr)


def refuse_write_target(ctx, target: cst.BaseExpression, node: cst.CSTNode, writer: str = "") -> None:
    """NPR205 for a write through `target` (at `node`; `writer`: which call writes it, when a
    helper does)."""
    name = chain_name(ctx, target)
    what = f"`{name.value}`" if name is not None else "this expression"
    part, held = attribute_written(ctx, target)
    if part in ("real", "imag"):
        other = "imag" if part == "real" else "real"
        message = f"cannot translate a write through `.{part}` of {what}: a view of part of each complex element"
        hint = (f"write the whole complex array: `z.{part}[i] = v` is `z[i] = "
                + ("v + 1j * z.imag[i]`" if part == "real" else "z.real[i] + 1j * v`")
                + f" (`.{other}` unchanged)")
    elif isinstance(target, cst.Attribute) and target.attr.value in ("shape", "strides", "dtype", "data"):
        attr = target.attr.value
        message = (f"cannot translate `{what.strip('`')}.{attr} = ...`: it changes the array object in place, "
                   "which every other name or view of it sees (translated only as `X.shape = S` right after "
                   "`X = <a new array>` in the same block, where nothing else can hold it)")
        hint = ("reshape into a new name, `y = x.reshape(S)`, and use it" if attr == "shape" else
                f"`.{attr} =` has no JAX counterpart: make a new array (`x.astype`, `np.lib.stride_tricks`) instead")
    elif (called := _called_base(target)) is not None:
        message = (f"cannot translate a write through what {called}() returns: a view a helper returns is "
                   "followed only where the helper's whole body is `return a[<basic index>]` of its parameter "
                   "and the call's arguments are names or numbers")
        hint = (f"write through the array with the index {called}() applies (`u[1:-1][...] = v`), or make "
                f"{called}() a single `return a[...]` of its parameter")
    elif held is not None:
        message = (f"cannot translate a write into `{held}`{f' ({writer})' if writer else ''}, an array held by "
                   "an object: np2ref follows arrays through parameters and names, not through attributes")
        hint = f"pass the array itself as a parameter and write it there (`def step(u, ...)` called as `step({held}, ...)`)"
    else:
        message = f"cannot translate a write through {what}: the view it makes (or the temporary it writes into) " \
            "is not modelled"
        hint = "write into the array itself with an index, e.g. `u[::-1] = ...`"
    ctx.sink.report("NPR205", message, ctx.span(node), hint=hint)


def opaque_view(ctx, expr: cst.BaseExpression) -> bool:
    """Whether `expr` (indexed or not) is a call that may return a view np2ref does not model: a
    NumPy function such as np.flip or np.squeeze, a view method, or a module function that may
    return a view of its parameter (`def rows(x): y = x[1:]; return y`). A writing helper handed
    it writes the caller's array in NumPy; a copy handed in would leave it as it was."""
    while isinstance(expr, cst.Subscript):
        expr = expr.value
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    if ctx.numpy_name(func) in fx.OPAQUE_VIEW_FUNCTIONS:
        return True
    if isinstance(func, cst.Attribute) and ctx.numpy_name(func) is None and func.attr.value in fx.OPAQUE_VIEW_METHODS:
        return True
    return isinstance(func, cst.Name) and func.value in ctx.all and func.value not in ctx.locals \
        and bool(ctx.all[func.value].returns_alias)


def _called_base(target: cst.BaseExpression) -> str | None:
    """`f` where the write target is `f(...)[...]` (a helper's call written through)."""
    while isinstance(target, cst.Subscript):
        target = target.value
    return target.func.value if isinstance(target, cst.Call) and isinstance(target.func, cst.Name) else None


def attribute_written(ctx, target: cst.BaseExpression) -> tuple[str | None, str | None]:
    """(`real` or `imag` where the write goes through that attribute, the dotted name of an
    object's attribute it writes into: `self.u` of `self.u[1:-1] += ...`, `p.v` of `p.v -= ...`)."""
    expr = target
    while isinstance(expr, cst.Subscript):
        expr = expr.value
    if not isinstance(expr, cst.Attribute) or ctx.numpy_name(expr) is not None:
        return None, None
    if expr.attr.value in ("real", "imag"):
        return expr.attr.value, None
    held = dotted(expr)
    return None, held if held is not None and expr.attr.value not in fx.ARRAY_METHODS else None


def mark_write_target(ctx, target: cst.BaseExpression, node: cst.CSTNode) -> bool:
    roots = ctx.roots_of(target)
    globals_ = sorted(r for r in roots if r.startswith("global "))
    if globals_:
        ctx.sink.report("NPR202", f"writes the module-level array `{globals_[0][7:]}`",
                        ctx.span(node),
                        hint="pass the array in as a parameter; np2ref writes it back to the caller")
        return False
    if mark_ref(ctx, target):
        if may_copy(target, ctx.numpy_name):
            # `b[[0, 1]][0] = v`, `b[[0, 2]].fill(v)`: NumPy's chain is a copy there, and the write
            # goes into that temporary (b unchanged); npr_own passes a view (`b[1:][0]`) on
            ctx.m.own_form.add(target)
        return True
    name = chain_name(ctx, target)
    if name is not None and not roots and name.value not in ctx.locals and name.value not in ctx.f.params \
            and ctx.bound is not None and name.value in ctx.bound:
        # a name bound only in the `if __name__ == "__main__":` block (or by another function's
        # `global`): a module-level array all the same
        ctx.sink.report("NPR202", f"writes `{name.value}`, which is not a local array: a module-level "
                        "one (bound outside the module's top-level statements)", ctx.span(node),
                        hint="pass the array in as a parameter; np2ref writes it back to the caller")
        return False
    refuse_write_target(ctx, target, node)
    return False


_COPYING_VIEW_CALLS = frozenset({"reshape", "ravel", "numpy.reshape", "numpy.ravel"})


def _basic_item(item: cst.BaseSlice) -> bool:
    """A subscript element that always gives a view: a slice, `...`, `None`, an int literal."""
    if isinstance(item, cst.Slice):
        return True
    value = item.value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return isinstance(value, (cst.Integer, cst.Ellipsis)) or (isinstance(value, cst.Name)
                                                                and value.value == "None")


def may_copy(expr: cst.BaseExpression, numpy_name) -> bool:
    """Whether a view chain may come out a copy (a fancy index; reshape/ravel of a view whose
    layout needs one), so that NumPy's choice has to be followed when the result is written."""
    while True:
        if isinstance(expr, cst.Subscript):
            if not all(_basic_item(e.slice) for e in expr.slice):
                return True
            expr = expr.value
        elif isinstance(expr, cst.Attribute):
            expr = expr.value
        elif isinstance(expr, cst.Call):
            func = expr.func
            qual = numpy_name(func)
            if qual in _COPYING_VIEW_CALLS or (qual is None and isinstance(func, cst.Attribute)
                                               and func.attr.value in _COPYING_VIEW_CALLS):
                return True
            if fx.view_call(qual, expr) == "npr_asarray" and (len(positional(expr)) > 1 or any(
                    a.keyword is not None and a.keyword.value in ("dtype", "copy") for a in expr.args)):
                return True  # a copy where the dtype differs (npr_asarray)
            args = positional(expr)
            if qual is None and isinstance(func, cst.Attribute):
                expr = func.value
            elif args:
                expr = args[0].value
            else:
                return False
        else:
            return False


@plans(cst.Return)
def plan_return(node: cst.Return, ctx) -> None:
    """A returned view of a parameter stays a reference (the caller sees NumPy's aliasing), in
    a tuple, list or dict display too, nested (`return (z, (x, r))`: r was loaded, a new array
    where NumPy returns the caller's own)."""
    if node.value is None:
        return
    for v in _returned_items(node.value):
        name = chain_name(ctx, v)
        if name is not None and ctx.is_ref(name.value) and \
                any(r.startswith("param ") for r in ctx.f.roots.get(name.value, ())):
            mark_ref(ctx, v)


def _returned_items(value: cst.BaseExpression):
    """The values a return's displays hold, through nested tuples, lists and dicts."""
    if isinstance(value, (cst.Tuple, cst.List)):
        for e in value.elements:
            if isinstance(e, cst.Element):  # (a starred element: not an item of its own)
                yield from _returned_items(e.value)
    elif isinstance(value, cst.Dict):
        for e in value.elements:
            if isinstance(e, cst.DictElement):
                yield from _returned_items(e.value)
    else:
        yield value


# -- emitting --------------------------------------------------------------------------------
@emits(cst.Attribute, order=10)
def emit_view_attribute(original: cst.Attribute, updated: cst.Attribute, ctx):
    if original in ctx.m.ref_form:  # `.T` of a ref
        return J.call(fx.VIEW_ATTRIBUTES[original.attr.value], updated.value)
    return None


def emit_view_call(original: cst.Call, updated: cst.Call, ctx) -> cst.BaseExpression:
    func = updated.func
    args = plain(updated.args)
    if isinstance(original.func, cst.Attribute) and ctx.imports.qualify_numpy(
            original.func, frozenset(ctx.f.roots)) is None:
        meth = original.func.attr.value
        helper = fx.VIEW_METHODS[meth]
        if meth in ("reshape", "transpose") and len(args) > 1:
            args = [cst.Arg(cst.Tuple([cst.Element(a.value) for a in args]))]
        return cst.Call(J.name(helper), [cst.Arg(func.value), *args])
    qual = ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots))
    return cst.Call(J.name(fx.view_call(qual, original)), args)


def owned(original: cst.CSTNode, result: cst.BaseExpression, ctx) -> cst.BaseExpression:
    """Any expression the plan made a Ref of its own: `jax.new_ref(e)` / `npr_own(e)`."""
    if original in ctx.m.new_ref:
        return J.call(J.NEW_REF, result)
    if original in ctx.m.share_number:
        return J.call(J.SHARE, result)
    if original in ctx.m.own_form:
        if original in ctx.m.own_scalar:
            return J.call(J.OWN, result, scalar=cst.Name("True"))
        if original in ctx.m.own_held:
            return J.call(J.OWN, result, held=J.string(ctx.m.own_held[original]))
        return J.call(J.OWN, result)
    return result
