"""0-d results as NumPy gives them: a 0-d *array* where NumPy makes one, NumPy's scalar elsewhere.

What: the calls and returned names that may hold a 0-d array in NumPy get a kind note for the
runtime (rt/introspect.py): `np.zeros(())` -> `npr_array_made(...)`, `a.copy()` of a local 0-d
array -> `npr_kind_as(a.copy(), a)`, `x[0:1].reshape(())` -> `npr_kind_call('reshape',
x[0:1], ())`, `return a` of a written `a = np.zeros(())` -> `return npr_array_made(a[...])`.

Why only those: JAX has no 0-d array apart from its scalars, so a note says which a 0-d value is.
Noting every maker's result and every written name's load (fuzz5's first version) turned
`E = 0.0; E = accumulate(E, x)` into a 0-d array where NumPy returns np.float64, and wrapped
every array returned in readable output. So the source has to show a 0-d array can come out
(array0_maybe): a maker of shape `()`, `np.array`/`np.asarray`/`*_like` of a value that may be
0-d (a number, an element, a reduction), a reshape to `()`, a squeeze, `x[0, ...]`, a name all
of whose bindings are such. Reductions, element reads, Python numbers and arithmetic stay
NumPy's scalars, unwrapped; so do a parameter's copy, astype, `*_like` and `np.where`, which
are ordinary arrays in all but odd programs (`u.copy()` noted wrapped ordinary code).

In a module that asks a value's type or text (introspection.asks) every maker is noted, as
before: what it prints of a value in the middle of the function depends on it.

A parameter's copy, astype, `*_like`, np.where: np2ref.compile records which parameters such a
call reads (params0_recorded) and, for a call given a 0-d argument there (a 0-d NumPy array; a
NumPy or Python scalar for the makers), traces a second program converted with parameters
taken as possibly 0-d (params0_variant: `z.copy()` -> `npr_kind_as(z.copy(), z)`,
`np.zeros_like(z)` -> `npr_array_made(...)`; compiled/zero_d_variant.py). The readable program
and the ordinary calls' program are unchanged.

Exact or not: values are unchanged; only which of NumPy's two 0-d types a result has. Where a
0-d array is made in a way not listed here (`np.zeros(shape)` with `shape = ()` passed in;
`np2ref convert`'s program), the result comes back NumPy's scalar (docs/semantics.md). A
helper's copy of its parameter, and a written array's load passed to a helper, are noted in
np2ref.compile's programs (Params0.entry, _loads_passed).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses

import libcst as cst
import numpy as np

from ...analysis import reaching
from ...emit import jaxnames as J
from .introspection import asks

# NumPy's array makers: a 0-d result is a 0-d array (np.array, np.asarray, np.full, np.full_like
# note theirs themselves at run time; a shape-() one is noted here too, for its Ref)
_MAKERS = frozenset(f"numpy.{n}" for n in "zeros ones empty zeros_like ones_like empty_like copy where".split())
_SHAPED = frozenset(f"numpy.{n}" for n in "zeros ones empty full".split())  # (their shape is the first argument)
_OF_OPERAND = frozenset(f"numpy.{n}" for n in "zeros_like ones_like empty_like full_like copy array asarray "
                                              "asanyarray ascontiguousarray".split())
# methods and functions whose result is of the operand's kind: a 0-d array's copy, or an array's
# reshape to (), is a 0-d array; a NumPy scalar's a scalar
_SAME_KIND_METHODS = frozenset({"copy", "astype", "reshape", "squeeze", "transpose"})
_SAME_KIND_FUNCTIONS = frozenset({"numpy.reshape", "numpy.squeeze", "numpy.transpose"})
_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "mean", "std", "var", "item", "argmax", "argmin", "dot"})


@dataclasses.dataclass
class Params0:
    """The parameters a conversion met where a 0-d argument would change a result's kind:
    {function: {parameter: "array" (a 0-d NumPy array: its copy, astype) or "any" (any 0-d
    value: np.zeros_like, np.where of it)}}. `variant`: the conversion takes them as 0-d; so it
    does the parameters of functions other than `entry` (np2ref.compile's function): a helper's
    parameter may be given a 0-d array the entry makes (`hcopy(np.zeros(()))`), which no
    argument of the entry's call shows, and its notes decide by the operand when traced."""
    variant: bool
    found: dict = dataclasses.field(default_factory=dict)
    entry: str | None = None


_PARAMS0: contextvars.ContextVar = contextvars.ContextVar("np2ref_params0", default=None)
_ANY = frozenset({"<any 0-d>"})  # in `seen`: reached through shaped0 (any 0-d value counts)


@contextlib.contextmanager
def params0_recorded(variant: bool = False, entry: str | None = None):
    """Within the block, conversions record the parameters a 0-d argument matters for (Params0,
    yielded); with `variant`, they also note those calls' kinds, as if the parameter were 0-d
    (with `entry`, those of every function but `entry`)."""
    token = _PARAMS0.set(Params0(variant, entry=entry))
    try:
        yield _PARAMS0.get()
    finally:
        _PARAMS0.reset(token)


def _param0(name: str, ctx, kind: str) -> bool:
    """A parameter met by array0_maybe or shaped0: recorded (params0_recorded), and taken as
    possibly 0-d in the variant only."""
    state = _PARAMS0.get()
    if state is None:
        return False
    found = state.found.setdefault(ctx.f.name, {})
    if found.get(name) != "any":
        found[name] = kind
    return state.variant or state.entry is not None and ctx.f.name != state.entry


def kind_of_call(original: cst.Call, result: cst.BaseExpression, ctx) -> cst.BaseExpression:
    """`np.zeros(())` -> `npr_array_made(...)` (a 0-d array), `np.float64(a)` -> `npr_scalar_of(...)`
    (NumPy's scalar, of a 0-d array too), `a.reshape(())` -> `npr_kind_as(..., a)` (an array's is
    an array, a scalar's a scalar): what NumPy gives is what a call returns and what introspection
    answers (rt/introspect.py). Left out where the source shows no 0-d array can come out."""
    result = _loads_passed(original, result, ctx)
    if not asks(ctx) and (original in ctx.m.new_ref or original in ctx.m.own_form):
        return result  # a Ref's own array: an array whatever its shape (its load returned: arrays_returned)
    qual = ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots)) or ""
    if qual == "numpy.where" and len(original.args) != 3:
        return result  # np.where(m): a tuple of index arrays (rules/mask_items.py reads its mask)
    if _scalar_type(qual):
        arg = original.args[0].value if original.args else None
        noted = arg is not None and not isinstance(arg, (cst.Integer, cst.Float)) and (
            asks(ctx) or array0_maybe(arg, ctx))
        return J.call(J.SCALAR_OF, result) if noted else result  # (np.float64(a): a new scalar)
    if not asks(ctx) and not array0_maybe(original, ctx):
        return result
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
    return result


def _loads_passed(original: cst.Call, result: cst.BaseExpression, ctx) -> cst.BaseExpression:
    """In np2ref.compile's programs (Params0.entry), `helper(z)` of a written array z passes its
    load `z[...]`, a new value: noted a 0-d array where it is 0-d (`npr_array_made(z[...])`), as
    the helper is given NumPy's array z itself, whose copy, astype or return is an array too. Only
    a Ref NumPy holds an array in (written through an index, never a number an `op=` rebinds)."""
    state = _PARAMS0.get()
    if isinstance(result, cst.Call) and isinstance(result.func, cst.Name) and result.func.value == J.VALUE \
            and len(result.args) == 1 and isinstance(result.args[0].value, cst.Call):  # `npr_value(helper(z[...]))`
        inner = _loads_passed(original, result.args[0].value, ctx)
        return result if inner is result.args[0].value else J.call(J.VALUE, inner)
    if state is None or state.entry is None or not isinstance(result, cst.Call) \
            or not (isinstance(original.func, cst.Name) and original.func.value in ctx.facts
                    and original.func.value not in ctx.f.roots) or len(result.args) != len(original.args):
        return result
    args = [a.with_changes(value=J.call(J.ARRAY_MADE, a.value)) if _written_load(o.value, a.value, ctx) else a
            for o, a in zip(original.args, result.args)]
    return result.with_changes(args=args) if any(a is not b for a, b in zip(args, result.args)) else result


def _written_load(ov, uv, ctx) -> bool:
    f = ctx.f
    return isinstance(ov, cst.Name) and ov.value in f.ref_names and ov.value not in f.maybe_scalar \
        and isinstance(uv, cst.Subscript) and isinstance(uv.value, cst.Name) and uv.value.value == ov.value \
        and len(uv.slice) == 1 and isinstance(uv.slice[0].slice, cst.Index) \
        and isinstance(uv.slice[0].slice.value, cst.Ellipsis)


def array0_maybe(expr: cst.BaseExpression, ctx, seen: frozenset = frozenset()) -> bool:
    """Whether the source shows that NumPy's value of `expr` may be a 0-d array (not a scalar):
    see the module docstring. Not a parameter, nor a copy, `*_like` or `np.where` of one: an
    ordinary array in all but odd uses (`u.copy()` noted would wrap ordinary code)."""
    if isinstance(expr, cst.Name):
        if expr.value not in seen and _param(expr, ctx):
            return _param0(expr.value, ctx, "any" if _ANY <= seen else "array")
        made = _bound(expr.value, ctx, seen)
        return bool(made) and any(array0_maybe(v, ctx, seen | {expr.value}) for v in made)
    if isinstance(expr, cst.Subscript):  # `x[0, ...]`, `a[...]`: NumPy's array, 0-d where x is 1-d
        return _ellipsis_read(expr)
    if not isinstance(expr, cst.Call):
        return False
    qual = ctx.imports.qualify_numpy(expr.func, frozenset(ctx.f.roots)) or ""
    func, args = expr.func, [a.value for a in expr.args if a.keyword is None]
    if qual in _SHAPED:
        return _empty_shape(expr)
    if qual in _OF_OPERAND:
        return bool(args) and shaped0(args[0], ctx, seen)
    if qual == "numpy.where":
        return len(args) == 3 and all(shaped0(a, ctx, seen) for a in args)
    if qual in _SAME_KIND_FUNCTIONS:
        return bool(args) and _to_0d(expr, qual[6:], args[0], False, ctx, seen)
    if isinstance(func, cst.Attribute) and func.attr.value in _SAME_KIND_METHODS and not qual \
            and ctx.imports.qualify(func, frozenset(ctx.f.roots)) is None:
        return _to_0d(expr, func.attr.value, func.value, True, ctx, seen)
    return False


def _to_0d(call: cst.Call, how: str, operand, method: bool, ctx, seen) -> bool:
    """`x.reshape(())`, `np.squeeze(x[0:1])`: a reshape to `()` or a squeeze may make a 0-d array
    of any array; a copy, astype or transpose is of the operand's kind."""
    if how == "reshape":
        shape = [a.value for a in call.args if a.keyword is None or a.keyword.value in ("shape", "newshape")]
        shape = shape[1 if not method else 0:]
        return len(shape) == 1 and _empty(shape[0])
    if how == "squeeze":
        return True
    return array0_maybe(operand, ctx, seen)


def shaped0(expr: cst.BaseExpression, ctx, seen: frozenset = frozenset()) -> bool:
    """Whether `expr` may be 0-d, an array or a scalar (what `np.asarray`, `np.zeros_like`,
    `np.where` make a 0-d array of): a number, an element read, a reduction, arithmetic of
    those, a 0-d array (array0_maybe); not a parameter (see array0_maybe)."""
    seen = seen | _ANY
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Name):
        if expr.value not in seen and _param(expr, ctx):
            return _param0(expr.value, ctx, "any")
        made = _bound(expr.value, ctx, seen)
        return any(shaped0(v, ctx, seen | {expr.value}) for v in made)
    if isinstance(expr, (cst.UnaryOperation,)):
        return shaped0(expr.expression, ctx, seen)
    if isinstance(expr, cst.BinaryOperation):
        return shaped0(expr.left, ctx, seen) and shaped0(expr.right, ctx, seen)
    if isinstance(expr, cst.Comparison):
        return shaped0(expr.left, ctx, seen) and all(shaped0(c.comparator, ctx, seen) for c in expr.comparisons)
    if isinstance(expr, cst.Subscript):
        return _ellipsis_read(expr) or all(isinstance(e.slice, cst.Index) for e in expr.slice)
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name) and func.value in ("float", "int", "abs", "round") or \
                isinstance(func, cst.Attribute) and func.attr.value in _REDUCTIONS and not _axis(expr):
            return True
        return array0_maybe(expr, ctx, seen)
    return False


def _bound(name: str, ctx, seen) -> list:
    """The values a local name is bound to (an op-assignment's binding has none), none for one
    seen already or a parameter."""
    if name in seen or _param(cst.Name(name), ctx):
        return []
    return [v for t, v in ctx.f.bindings if isinstance(t, cst.Name) and t.value == name and v is not None]


def _param(expr, ctx) -> bool:
    return isinstance(expr, cst.Name) and f"param {expr.value}" in ctx.f.roots.get(expr.value, ())


def _axis(call: cst.Call) -> bool:
    return any(a.keyword is None or a.keyword.value in ("axis", "keepdims") for a in call.args)


def _empty(expr) -> bool:
    return isinstance(expr, (cst.Tuple, cst.List)) and not expr.elements


def _empty_shape(call: cst.Call) -> bool:
    """`np.zeros(())`, `np.full((), v)`, `np.ones(shape=[])`."""
    shape = [a.value for a in call.args if a.keyword is None or a.keyword.value == "shape"]
    return bool(shape) and _empty(shape[0])


def _ellipsis_read(expr: cst.Subscript) -> bool:
    """`x[0, ...]`, `a[...]`: an ellipsis, no slice."""
    return any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis) for e in expr.slice) \
        and not any(isinstance(e.slice, cst.Slice) for e in expr.slice)


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
    """`return a` of a written array name (`a = np.zeros(()); a[...] = s`), an item of a returned
    tuple, list or dict display too: its load, `a[...]`, noted a 0-d array where it is 0-d
    (npr_array_made), as NumPy returns the array itself. Only a name every binding of which may
    make a 0-d array (array0_maybe): not one that may hold a number (`t = 0.0; t += x[i]`, `E =
    f(E, x)`), a parameter's (the caller's object; unless the one binding reaching the return
    rebinds it, `a = a.copy()`), or an array of dimensions written out (`np.zeros(3)`)."""
    if original.value is None:
        return updated
    value = _noted_loads(original.value, updated.value, ctx, original)
    return updated if value is updated.value else updated.with_changes(value=value)


def _noted_loads(ov, uv, ctx, ret):
    """`uv` with each returned load of a 0-d array name noted (arrays_returned), the items of a
    tuple, list or dict display one by one; `uv` itself where none is."""
    if isinstance(ov, (cst.Tuple, cst.List, cst.Dict)) and type(uv) is type(ov):
        items = [(o, u) for o, u in zip(ov.elements, uv.elements)
                 if isinstance(o, (cst.Element, cst.DictElement)) and type(u) is type(o)]
        if len(items) != len(ov.elements):
            return uv
        elements = [u.with_changes(value=_noted_loads(o.value, u.value, ctx, ret)) for o, u in items]
        changed = any(e.value is not u.value for e, (_, u) in zip(elements, items))
        return uv.with_changes(elements=elements) if changed else uv
    if isinstance(ov, cst.Subscript) and _ellipsis_read(ov) and isinstance(uv, cst.Call) \
            and isinstance(uv.func, cst.Name) and uv.func.value == J.SUB:
        # `return a[...]` of a name that may be a Ref or a value (`a = z[()]`): NumPy's array
        # always (a view noted by jit.py, a value here; npr_array_made hands a view back as it is)
        return J.call(J.ARRAY_MADE, uv)
    if isinstance(ov, cst.Name) and _load_of(uv, ov.value, ctx) and _array_ref(ov.value, ctx, ret):
        # (a rebound parameter's Ref is returned as it is: its load, a new array's)
        return J.call(J.ARRAY_MADE, J.load_all(uv) if isinstance(uv, cst.Name) else uv)
    return uv


def _load_of(expr, name: str, ctx) -> bool:
    """`a[...]`, `npr_load(a)` (a display's item), or a parameter's Ref `a` itself (rebound:
    _array_ref)."""
    if isinstance(expr, cst.Call):
        return isinstance(expr.func, cst.Name) and expr.func.value == J.LOAD and len(expr.args) == 1 \
            and isinstance(expr.args[0].value, cst.Name) and expr.args[0].value.value == name
    return isinstance(expr, cst.Subscript) or isinstance(expr, cst.Name) and _param(expr, ctx)


def _array_ref(name: str, ctx, ret: cst.Return) -> bool:
    f = ctx.f
    if name not in f.ref_names:
        return False
    if name in f.maybe_scalar or _param(cst.Name(name), ctx):
        # the caller's object, unless the one binding reaching the return rebinds it to a new
        # value (`a = a.copy(); a[...] *= 1; return a`: NumPy's 0-d array where `a` is one)
        value = _rebinding(name, ctx, ret)
        return value is not None and array0_maybe(value, ctx)
    made = _bound(name, ctx, frozenset())
    return bool(made) and all(array0_maybe(v, ctx, frozenset({name})) for v in made)


def _rebinding(name: str, ctx, ret: cst.Return) -> cst.BaseExpression | None:
    """The value of the one plain binding `name = value` that reaches `ret`, where the code shows
    it (analysis/reaching.py: no other binding, the parameter's own included, can reach it)."""
    f = ctx.f
    tree = f.derived.get("reaching")
    if tree is None:
        tree = f.derived["reaching"] = reaching.parents(f.node)
    targets = frozenset(t for t, _ in f.bindings
                        if t.value == name and not isinstance(tree.parent.get(t), cst.AugAssign))
    return reaching.reaching_value(tree, ret, name, targets) if targets else None


def _scalar_type(qual: str) -> bool:
    """`numpy.float64`, `numpy.int32`: a NumPy scalar type."""
    kind = getattr(np, qual[6:], None) if qual.startswith("numpy.") else None
    return isinstance(kind, type) and issubclass(kind, np.generic)


