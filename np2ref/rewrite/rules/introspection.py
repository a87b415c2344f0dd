"""Introspection: `isinstance(v, T)`, `type(v)`, `str(v)`, `format(v, spec)`, f-strings and
`"...".format(v)` on values the translation holds as JAX arrays.

What: `isinstance` -> `npr_isinstance`, `type` -> `npr_type` (the type the value has in NumPy:
`np.ndarray`, NumPy's scalar of its dtype, or the Python scalar a weakly typed value stands
for); `str(v)` -> `npr_str(v)`, `repr(v)` -> `npr_repr(v)`, `{v}` -> `{npr_formatted(v)}` (Python's text on a concrete
value, NPR031 when traced). Why: a traced value is a JAX tracer, so `isinstance(s, float)` on a
Python float argument was False and `str(x[0])` gave 'JitTracer(float64[])', silently. NumPy
names in the type argument (`np.ndarray`, `np.floating`, `np.float64`) stay NumPy's classes.
"""

from __future__ import annotations

import libcst as cst
import numpy as np

from ...analysis.host_code import printed_at_run_time
from ...emit import jaxnames as J
from ..registry import emits, emits_special, plans

_CALLS = {"isinstance": J.ISINSTANCE, "type": J.TYPE, "str": J.STR, "repr": J.REPR}


@plans(cst.Call, order=12)
def plan_introspection(node: cst.Call, ctx) -> bool:
    func = node.func
    if isinstance(func, cst.Name) and func.value in (*_CALLS, "format") and func.value not in ctx.locals \
            and node.args and all(a.star == "" for a in node.args):
        if func.value == "isinstance" and len(node.args) == 2:
            _keep_numpy_classes(ctx, node.args[1].value)
        if func.value == "type" and len(node.args) != 1:
            return False  # type(name, bases, dict) is Python's own
        _unloaded(ctx, node.args[0].value)
        ctx.m.special_calls[node] = ("introspect", func.value)
        return True
    if isinstance(func, cst.Attribute) and func.attr.value == "format" \
            and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString)):
        ctx.m.special_calls[node] = ("introspect", "str.format")
        return True
    return False


def asks(ctx) -> bool:
    """Whether the module asks a value's type or text (type, isinstance, repr, str, print): where
    a 0-d array and a NumPy scalar answer differently (rt/introspect.py), its reads say which
    (rules/reads.py, calls.py). Read through ctx.module_asks: once per module, not once per read
    (every read asking again walked every function's plan: quadratic in the functions, issue 43)."""
    return ctx.module_asks


def module_asks(marks) -> bool:
    """asks() of a module whose functions' (frozen) plans are `marks`."""
    return any(kind in ("introspect", "print") for m in marks.values() for kind, _ in m.special_calls.values())


# NumPy's array makers: a 0-d result is a 0-d array (np.array, np.asarray, np.full, np.full_like
# note theirs themselves)
_MAKERS = frozenset(f"numpy.{n}" for n in "zeros ones empty zeros_like ones_like empty_like copy where".split())
_SHAPED = frozenset(f"numpy.{n}" for n in "zeros ones empty".split())  # (their shape is the first argument)
# methods and functions whose result is of the operand's kind: a 0-d array's copy, or an array's
# reshape to (), is a 0-d array; a NumPy scalar's a scalar
_SAME_KIND_METHODS = frozenset({"copy", "astype", "reshape", "squeeze", "transpose"})
_SAME_KIND_FUNCTIONS = frozenset({"numpy.reshape", "numpy.squeeze", "numpy.transpose"})


def kind_of_call(original: cst.Call, result: cst.BaseExpression, ctx) -> cst.BaseExpression:
    """`np.zeros(())` -> `npr_array_made(...)` (a 0-d array), `np.float64(a)` -> `npr_scalar_of(...)`
    (NumPy's scalar, of a 0-d array too), `a.reshape(())` -> `npr_kind_as(..., a)` (an array's is
    an array, a scalar's a scalar): what NumPy gives is what a call returns and what introspection
    answers (rt/introspect.py). Left out where the result is never 0-d (`np.zeros(3)`)."""
    if not asks(ctx) and (original in ctx.m.new_ref or original in ctx.m.own_form):
        return result  # a Ref's own array: an array whatever its shape (its load returned: arrays_returned)
    qual = ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots)) or ""
    func = original.func
    if isinstance(func, cst.Attribute) and func.attr.value in _SAME_KIND_METHODS and not qual \
            and ctx.imports.qualify(func, frozenset(ctx.f.roots)) is None and _may_be_0d(original, func.attr.value):
        if isinstance(func.value, cst.Name):
            return J.call(J.KIND_AS, result, func.value)  # `a.copy()`: a 0-d array if `a` is one
        if func.attr.value in ("copy", "astype") and not asks(ctx) and _scalar_or_nd(func.value):
            return result  # `A[k].copy()`: a scalar's copy is one, an n-d array's is n-d
        if isinstance(result, cst.Call) and isinstance(result.func, cst.Attribute):  # `x[0:1].reshape(())`
            return result.with_changes(func=J.name(J.KIND_CALL),
                                       args=[cst.Arg(J.string(func.attr.value)), cst.Arg(result.func.value), *result.args])
        return result
    if qual in _SAME_KIND_FUNCTIONS and _may_be_0d(original, qual[6:], method=False) and isinstance(result, cst.Call):
        return result.with_changes(func=J.name(J.KIND_CALL), args=[cst.Arg(result.func), *result.args])
    if qual in _MAKERS and (qual not in _SHAPED or _may_be_0d(original, "shape")):
        return J.call(J.ARRAY_MADE, result)
    if _scalar_type(qual) and not (original.args and isinstance(original.args[0].value, (cst.Integer, cst.Float))):
        return J.call(J.SCALAR_OF, result)
    return result


def bare_read(expr: cst.BaseExpression) -> cst.BaseExpression:
    """A read without the kind emit_subscript notes on it (`npr_scalar_of(x[m])` -> `x[m]`): for
    rules that take the subscript apart (a masked reduction's operand)."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in (J.SCALAR_OF, J.ARRAY_MADE) \
            and len(expr.args) == 1:
        return expr.args[0].value
    return expr


def _scalar_or_nd(expr) -> bool:
    """`A[k]`, `x[i, j]`, `a * 2`: never a 0-d array (an element read or an operator's result is a
    NumPy scalar where 0-d); not `x[0, ...]`, a call's result or a name."""
    if isinstance(expr, cst.Subscript):
        return not any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, (cst.Ellipsis, cst.Tuple))
                       for e in expr.slice)
    return isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation))


def _may_be_0d(call: cst.Call, how: str, method: bool = True) -> bool:
    """Whether the call's result may be 0-d: not a shape (a maker's first argument, reshape's) of
    one or more dimensions written out (`3`, `(n, m)`, `x.shape[0]`, `len(v)`, `-1`) or several
    arguments of the reshape method."""
    if how not in ("shape", "reshape"):
        return True
    args = [a for a in call.args if a.keyword is None or a.keyword.value in ("shape", "newshape")]
    if how == "reshape" and method and len(args) > 1:
        return False  # `x.reshape(n, m)`
    at = 1 if how == "reshape" and not method else 0  # (`np.reshape(a, shape)`)
    if len(args) <= at:
        return True
    shape = args[at].value
    if isinstance(shape, (cst.Tuple, cst.List)):
        return not any(isinstance(e, cst.Element) for e in shape.elements)
    return not _an_int(shape)


def _an_int(expr) -> bool:
    """An expression that is an int, never a tuple: a literal, `len(...)`, `x.shape[0]`, `x.size`,
    arithmetic of those."""
    if isinstance(expr, cst.Integer):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return _an_int(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, (cst.Add, cst.Multiply)):  # (`2 * s` of a tuple s is a tuple)
            return _an_int(expr.left) and _an_int(expr.right)
        return _an_int(expr.left) or _an_int(expr.right)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("len", "int"):
        return True
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("size", "ndim"):
        return True
    return isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) \
        and expr.value.attr.value == "shape" and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index)


def arrays_returned(original: cst.Return, updated: cst.Return, ctx) -> cst.Return:
    """`return a` of a written array name (`a = np.zeros(()); a[...] = s`): its load, `a[...]`,
    noted a 0-d array where it is 0-d (npr_array_made), as NumPy returns the array itself; not a
    name that may hold a scalar (`t = 0.0; t += x[i]`), a parameter's (the caller's object), or
    one every binding of which makes an array of one or more dimensions (`np.zeros(3)`)."""
    if original.value is None:
        return updated
    tuple_ = isinstance(original.value, (cst.Tuple, cst.List)) and isinstance(updated.value, type(original.value))
    pairs = list(zip(original.value.elements, updated.value.elements)) if tuple_ else [(original.value, updated.value)]
    values, changed = [], False
    for o, u in pairs:
        ov, uv = (o.value, u.value) if tuple_ else (o, u)
        if isinstance(ov, cst.Name) and isinstance(uv, cst.Subscript) and _array_ref(ov.value, ctx):
            uv, changed = J.call(J.ARRAY_MADE, uv), True
        values.append(u.with_changes(value=uv) if tuple_ else uv)
    if not changed:
        return updated
    value = updated.value.with_changes(elements=values) if tuple_ else values[0]
    return updated.with_changes(value=value)


def _array_ref(name: str, ctx) -> bool:
    f = ctx.f
    if name not in f.ref_names or name in f.maybe_scalar or any(r.startswith("param ") for r in f.roots.get(name, ())):
        return False
    made = [v for t, v in f.bindings if t.value == name]
    return not made or not all(_nd_made(v, ctx) for v in made)


def _nd_made(value, ctx, seen=frozenset()) -> bool:
    """`np.zeros(3)`, `np.ones((n, m))`: a maker's array of one or more dimensions (`b = u` of one)."""
    if isinstance(value, cst.Name) and value.value not in seen:
        made = [v for t, v in ctx.f.bindings if t.value == value.value]
        return bool(made) and all(_nd_made(v, ctx, seen | {value.value}) for v in made)
    if not isinstance(value, cst.Call):
        return False
    qual = ctx.imports.qualify_numpy(value.func, frozenset(ctx.f.roots)) or ""
    return qual in _SHAPED and not _may_be_0d(value, "shape")


def _scalar_type(qual: str) -> bool:
    """`numpy.float64`, `numpy.int32`: a NumPy scalar type."""
    kind = getattr(np, qual[6:], None) if qual.startswith("numpy.") else None
    return isinstance(kind, type) and issubclass(kind, np.generic)


@plans(cst.Call, order=9)
def plan_print(node: cst.Call, ctx) -> bool:
    """`print(...)` to standard output (analysis/module.py printed_at_run_time): npr_print."""
    func = node.func
    if isinstance(func, cst.Name) and func.value == "print" and func.value not in ctx.locals \
            and printed_at_run_time(node):
        for a in node.args:
            for part in (a.value.parts if isinstance(a.value, cst.FormattedString) else [a.value]):
                _unloaded(ctx, part.expression if isinstance(part, cst.FormattedStringExpression) else part)
        ctx.m.special_calls[node] = ("print", None)
        return True
    return False


def _unloaded(ctx, expr) -> None:
    """A ref name asked its type or printed goes as the Ref, not its load: the Ref of a name
    that holds an array (`a = np.zeros(()); a[...] = s`) is an array whatever its shape, where
    its 0-d load reads as a scalar. Not a name that may hold a number (`total = 0.0`, then
    `total += x[i]`: a Ref holding NumPy's scalar, rt/views.py npr_share): loaded, as before."""
    for e in (expr.elements if isinstance(expr, (cst.Tuple, cst.List)) else [expr]):
        e = e.value if isinstance(e, cst.BaseElement) else e
        if isinstance(e, cst.Name) and ctx.is_ref(e.value) and e.value not in ctx.f.maybe_scalar:
            ctx.m.no_load.add(e)


@plans(cst.Comparison, order=5)
def plan_type_comparison(node: cst.Comparison, ctx) -> None:
    """`type(x) is np.ndarray`: the class on the other side stays NumPy's."""
    sides = [node.left, *(c.comparator for c in node.comparisons)]
    if any(isinstance(s, cst.Call) and isinstance(s.func, cst.Name) and s.func.value == "type"
           and s.func.value not in ctx.locals for s in sides):
        for s in sides:
            _keep_numpy_classes(ctx, s)


def _keep_numpy_classes(ctx, expr) -> None:
    """`np.ndarray`, `(float, np.floating)`: NumPy's classes themselves, not jnp's scalar types."""
    for e in (expr.elements if isinstance(expr, cst.Tuple) else [expr]):
        node = e.value if isinstance(e, cst.Element) else e
        if ctx.numpy_name(node) is not None:
            ctx.m.skip_numpy.add(node)
            ctx.inner.add(node)


@emits_special("introspect")
def emit_introspection(original, updated, detail, ctx):
    if detail in _CALLS:
        return updated.with_changes(func=J.name(_CALLS[detail]))
    # format(v, spec), "...".format(a, k=b): each value through npr_formatted
    args = list(updated.args)
    values = args[:1] if detail == "format" else args
    wrapped = [a.with_changes(value=J.call(J.FORMATTED, a.value)) for a in values]
    return updated.with_changes(args=wrapped + args[len(values):])


@emits_special("print")
def emit_print(original, updated, detail, ctx):
    """`print(f"step {t}: {u.max():.3f}", sep=s)` -> `npr_print(lambda p0, p1, p2: print(f"step
    {p0}: {p1:.3f}", sep=p2), t, u.max(), s)`: every value it prints (an f-string's values, an
    argument that is no literal) becomes a parameter of the print that runs on the host."""
    values = []

    def hole(expr):
        values.append(expr)
        return cst.Name(f"p{len(values) - 1}")

    class Holes(cst.CSTTransformer):
        def leave_FormattedStringExpression(self, original, updated):
            expr = updated.expression  # the text is made on the host: not npr_formatted's
            if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == J.FORMATTED:
                expr = expr.args[0].value
            if isinstance(expr, (cst.SimpleString, cst.Integer, cst.Float)):
                return updated.with_changes(expression=expr)
            return updated.with_changes(expression=held(expr))

    def unformatted(expr):  # npr_formatted(v) -> v: the host formats it
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == J.FORMATTED:
            return expr.args[0].value
        return expr

    def held(expr):  # npr_repr(v) -> repr(p0): the host makes the text of the value it is sent
        text = _HOST_TEXT.get(expr.func.value) if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) \
            and len(expr.args) == 1 and not expr.args[0].star and not expr.args[0].keyword else None
        if text is not None:
            return expr.with_changes(func=cst.Name(text), args=[expr.args[0].with_changes(value=held(expr.args[0].value))])
        if isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) \
                and expr.func.attr.value in _HOST_METHODS:  # v.tolist() -> p0.tolist(), on NumPy's value
            return expr.with_changes(func=expr.func.with_changes(value=hole(expr.func.value)))
        return hole(expr)

    args = []
    for a, before in zip(updated.args, original.args):
        value = a.value
        if isinstance(value, (cst.FormattedString, cst.ConcatenatedString)):
            value = value.visit(Holes())
        elif _percent_of_text(before.value):  # "loss %f" % (i, loss): formatted on the host
            fmt, values_ = ((value.left, value.right) if isinstance(value, cst.BinaryOperation)
                            else (value.args[0].value, value.args[2].value))  # npr_seq_op(text, '%', v)
            held = (values_.with_changes(elements=[e.with_changes(value=hole(e.value)) for e in values_.elements])
                    if isinstance(values_, cst.Tuple) and all(type(e) is cst.Element for e in values_.elements)
                    else hole(values_))
            value = cst.BinaryOperation(fmt, cst.Modulo(), held)
        elif _format_of_text(value):  # "loss {:.4f}".format(loss): likewise
            value = value.with_changes(args=[b.with_changes(value=hole(unformatted(b.value))) for b in value.args])
        elif not isinstance(value, (cst.SimpleString, cst.Integer, cst.Float)):
            value = held(value)
        args.append(a.with_changes(value=value))
    show = cst.Lambda(cst.Parameters([cst.Param(cst.Name(f"p{i}")) for i in range(len(values))]),
                      updated.with_changes(args=args))
    return J.call(J.PRINT, show, *values)


_TEXT = (cst.SimpleString, cst.ConcatenatedString)
# str(v) and repr(v) of a value known only when the program runs (npr_str's NPR031 when traced)
_HOST_TEXT = {J.STR: "str", J.REPR: "repr"}
# `print(v.tolist())`: Python values of an array known only when the program runs; the host
# calls the method on the NumPy value it is sent (NPR031 before, tolist() of a traced array)
_HOST_METHODS = frozenset({"tolist", "item"})


def _percent_of_text(expr) -> bool:
    """`"..." % values` (its translation is `npr_seq_op(text, '%', values)`)."""
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo) \
        and isinstance(expr.left, _TEXT)


def _format_of_text(expr) -> bool:
    """`"...".format(values)`, each value a plain argument."""
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) \
        and expr.func.attr.value == "format" and isinstance(expr.func.value, _TEXT) \
        and all(a.star == "" for a in expr.args)


@emits(cst.FormattedStringExpression)
def emit_formatted(original, updated, ctx):
    if isinstance(original.expression, (cst.SimpleString, cst.Integer, cst.Float)):
        return updated
    return updated.with_changes(expression=J.call(J.FORMATTED, updated.expression))
