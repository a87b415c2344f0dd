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
            sent = (values_.with_changes(elements=[e.with_changes(value=hole(e.value)) for e in values_.elements])
                    if isinstance(values_, cst.Tuple) and all(type(e) is cst.Element for e in values_.elements)
                    else hole(values_))  # (not `held`: that name is the helper the later arguments call)
            value = cst.BinaryOperation(fmt, cst.Modulo(), sent)
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
