"""OutArgument: `np.add(a, b, out=c)`, `np.clip(x, lo, hi, out=x)`, with or without `where=`.

What: the call without `out=` computes the value; `npr_out(c, value, ufunc=...)` stores it into
the Ref `c` (with `where=`, `jnp.where(mask, value, c[...])` first):
    np.multiply(u, 2, out=u[1:])   ->  npr_out(npr_sub(u, slice(1, None)), jnp.multiply(u[...], 2), ufunc='multiply')
Exact: NumPy computes the whole result before writing `out` for the ufuncs np2ref maps; the
runtime casts as NumPy's `out=` casting rule does (same_kind for a ufunc, unless
`casting='unsafe'`: floats to integers as NumPy casts them). Refused: a tuple `out=` (NPR106), an `out=`
that is not a view of a ref (NPR202/NPR205), a ufunc's where= without out= (NPR106: NumPy leaves the
other elements uninitialised). A positional out (`np.add(a, b, c)`) reaches here as `out=c`
(frontend/outs.py).

A new array as `out=`, `np.divide(a, b, out=np.zeros_like(a), where=b != 0)` (the guarded
division), is written into a Ref made of it and read back: `npr_load(npr_out(jax.new_ref(
np.zeros_like(a)), jnp.where(b != 0, a / b, np.zeros_like(a)), ufunc='divide'))`, the call's
value as NumPy's (its `out`, cast as NumPy casts into it). `np.empty`/`np.empty_like` with
where= stays refused (NumPy leaves the other elements as the memory held them: NPR205).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.numpy_table import UFUNCS
from ...emit import jaxnames as J
from ..registry import emits_special, plans
from .views import mark_write_target


@plans(cst.Call, order=20)
def plan_out_argument(node: cst.Call, ctx) -> bool:
    func = node.func
    qual = ctx.numpy_name(func)
    out = [a for a in node.args if a.keyword is not None and a.keyword.value == "out"]
    if not out and qual in UFUNCS and any(a.keyword is not None and a.keyword.value == "where" for a in node.args):
        ctx.sink.report("NPR106", f"`{qual[6:]}(..., where=m)` without out=: NumPy leaves the result's elements "
                        "where m is False uninitialised (whatever the new array's memory held)", ctx.span(node),
                        hint="pass out= an array holding the values meant there, or write np.where(m, f(x), fill)")
        return True
    if not out or (isinstance(func, cst.Name) and qual is None):  # `dict(out=...)` is no ufunc
        return False
    if isinstance(out[0].value, cst.Tuple):
        ctx.sink.report("NPR106", "a tuple `out=` is not translated", ctx.span(node))
    elif _fresh(ctx, out[0].value, node):
        ctx.m.special_calls[node] = ("out", (qual, "fresh"))
    elif mark_write_target(ctx, out[0].value, node):
        ctx.m.special_calls[node] = ("out", qual)
    return True


_FRESH = frozenset(f"numpy.{n}" for n in "zeros zeros_like ones ones_like full full_like empty empty_like".split())


def _fresh(ctx, out: cst.BaseExpression, call: cst.Call) -> bool:
    """`out=` a new array made in the call (`np.zeros_like(a)`); empty ones only without where=."""
    qual = ctx.numpy_name(out.func) if isinstance(out, cst.Call) else None
    where = any(a.keyword is not None and a.keyword.value == "where" for a in call.args)
    return qual in _FRESH and not (where and qual.startswith("numpy.empty"))


@emits_special("out")
def emit_out_argument(original: cst.Call, updated: cst.Call, detail, ctx):
    args = list(updated.args)
    out = next(a for a in args if a.keyword is not None and a.keyword.value == "out")
    where = next((a for a in args if a.keyword is not None and a.keyword.value == "where"), None)
    rest = [a for a in args if a is not out and a is not where]
    if rest:
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    value: cst.BaseExpression = updated.with_changes(args=rest)
    fresh = isinstance(detail, tuple)
    detail = detail[0] if fresh else detail
    if where is not None:
        value = J.call(f"{J.JNP}.where", where.value, value,
                       out.value.deep_clone() if fresh else J.call(J.LOAD, out.value))
    casting = next((a.value for a in args if a.keyword is not None and a.keyword.value == "casting"), None)
    unsafe = isinstance(casting, cst.SimpleString) and casting.evaluated_value == "unsafe"
    name = detail[6:] if detail and (detail in UFUNCS or detail in ("numpy.clip",)) else None
    kwargs = {"ufunc": J.string(name)} if name else {}
    if name and unsafe:
        kwargs["casting"] = J.string("unsafe")
    if fresh:  # a new array: a Ref of it written, its value the call's
        return J.call(J.LOAD, J.call(J.OUT, J.call(J.NEW_REF, out.value), value, **kwargs))
    return J.call(J.OUT, out.value, value, **kwargs)
