"""Calls: host calls, module functions, callees reached through parameters, random draws.

What: a call of a module function that writes or returns its parameters passes refs (`step(u)`
with `u` a Ref, `npr_value(f(x))` when f may return one of its Refs); an argument that may share
the buffer of one the callee writes is checked apart at trace time (`npr_apart`); a callee passed
in as a parameter runs through `npr_call` (pure, or refused when traced); `rng.normal(...)` is a
draw made on the host at run time (`npr_random`); `int(x)` of array data is `npr_int(x)`; array
methods with a NumPy-exact shim (`x.mean()`) go through it, `x.astype(dt)` through npr_astype. Refused: calls np2ref cannot see into
(NPR003), unpacked arguments to a function that writes its parameters (NPR208), arguments that may
share a written buffer when they cannot be checked (NPR201), one-argument np.where (NPR004).
"""

from __future__ import annotations

import builtins
import math

import libcst as cst

from ...analysis import effects as fx, pick_uses
from ...analysis.aliases import FunctionFacts
from ...analysis.library_table import LIBRARY_CALLS
from ...analysis.host_code import calls_through_parameter, PURE_CALLS, special_function_call
from ...analysis.identity import returns_through
from ...analysis.names import dotted
from ...analysis.nodes import number_literal, run_visitor
from ...analysis.numpy_table import is_random_draw, lookup, not_in_table, RANDOM_DRAWS, RANDOM_SEED
from ...diagnostics import Note
from ...emit import jaxnames as J
from ..registry import SPECIALS, emits, emits_special, plans
from ..syntax import plain, positional, walk
from .namespaces import METHOD_SHIMS, maybe_namespaces, method_shim, namespace_method, namespace_translation
from .call_checks import check_shared_buffers, check_written_defaults
from .sequence_args import convert_sequences
from .zero_d import kind_of_call
from .where_guard import guard_where
from .views import attribute_written, emit_view_call, mark_ref, mark_ref_or_own, opaque_view, refuse_write_target

# Methods jax.Array has and NumPy 2's arrays do not (`x.ptp()`): NumPy's AttributeError (npr_attribute)
_REMOVED_METHODS = frozenset({"ptp"})

# NumPy's integer scalar types: called on a float array they cast it (npr_scalar_type).
_INT_TYPES = frozenset(f"numpy.{t}" for t in "int8 int16 int32 int64 uint8 uint16 uint32 uint64 int_ uint intp "
                                             "uintp longlong".split())


def _dtype_shim(name: str, call: cst.Call, dtype_position: int) -> str | None:
    """The shim of sum/prod given a dtype (keyword, or positional after the axis): NumPy casts a
    float input to an integer dtype= element by element (npr_cast) before it accumulates."""
    if name not in ("sum", "prod"):
        return None
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if len(positional) > dtype_position or any(a.keyword is not None and a.keyword.value == "dtype" for a in call.args):
        return f"npr_np_{name}"
    return None

# np.sum/max/min/flip/any/all/count_nonzero of a slice: the runtime's npr_slice_* when a bound is not a number (its
# length may be known only at run time, windows_more.py); jax.numpy's function of a plain array otherwise
_SLICE_REDUCTIONS = {"numpy.sum": "npr_slice_sum", "numpy.max": "npr_slice_max", "numpy.amax": "npr_slice_max",
                     "numpy.min": "npr_slice_min", "numpy.amin": "npr_slice_min", "numpy.flip": "npr_slice_flip",
                     "numpy.any": "npr_slice_any", "numpy.all": "npr_slice_all",
                     "numpy.count_nonzero": "npr_slice_count_nonzero"}


def _slice_reduction(call: cst.Call, ctx) -> str | None:
    """The npr_slice_* shim for `np.max(t[i, i + 1:j] + t[i + 2:j + 1, j])`, `np.flip(r[:k])`: the first argument
    holds a slice with a bound that is not a number."""
    qual = ctx.imports.qualify_numpy(call.func, frozenset(ctx.f.roots))
    if qual not in _SLICE_REDUCTIONS or not call.args or call.args[0].keyword is not None \
            or call.args[0].star or not (lookup(qual) or "").startswith("jnp."):
        return None
    operand = call.args[0].value
    moving = ctx.f.derived.get("moving_names")  # `seg = x[:i]`, `d = pos[i + 1:] - pos[i]`, `r2 = np.sum(d * d, axis=1)`
    if moving is None:  # once per function, not at every reduction
        moving = ctx.f.derived["moving_names"] = _moving_names(ctx.f.bindings)
    if _moving_slice(operand) or any(isinstance(n, cst.Name) and n.value in moving for n in walk(operand)):
        return _SLICE_REDUCTIONS[qual]
    return None


def _moving_names(bindings) -> frozenset[str]:
    """Names some binding of which may hold a slice of run-time length: a moving slice in its
    value, or a name that may (a fixed point). The shim reduces such a value through its own
    method and anything else through jax.numpy's: a name taken in error costs nothing."""
    found: set[str] = set()
    while True:
        more = {t.value for t, v in bindings if isinstance(t, cst.Name) and t.value not in found and v is not None
                and (_moving_slice(v) or any(isinstance(n, cst.Name) and n.value in found for n in walk(v)))}
        if not more:
            return frozenset(found)
        found |= more


def _moving_slice(node: cst.BaseExpression) -> bool:
    """Whether node holds a slice with a bound that is not a number (`x[:i]`, `t[i + 1:j]`)."""
    return any(isinstance(part, (cst.Name, cst.BinaryOperation, cst.Call, cst.Attribute, cst.Subscript))
               for sl in walk(node) if isinstance(sl, cst.Slice) for part in (sl.lower, sl.upper))


def _copy_in_order(call: cst.Call, ctx) -> bool:
    """`x.copy(order=...)` on an array, or `np.copy(x, order=...)`."""
    if not any(a.keyword is not None and a.keyword.value == "order" for a in call.args):
        return False
    roots = frozenset(ctx.f.roots)
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "copy" \
            and ctx.imports.qualify(call.func, roots) is None:
        return True
    return ctx.imports.qualify_numpy(call.func, roots) == "numpy.copy"


def call_params(call: cst.Call, facts: FunctionFacts):
    """(argument, parameter name) pairs of a call of a module function."""
    return [(a.value, n) for a, n in fx.call_params(call.args, facts.params)]


_BUILTIN_NAMES = frozenset(dir(builtins))


# -- planning (in the order of the Call planners: see the `order` of each) ---------------------
@plans(cst.Call, order=10)
def plan_callee(node: cst.Call, ctx) -> None:
    """NPR003 for a call np2ref cannot see into (never claims the call)."""
    func = node.func
    qual = ctx.numpy_name(func)
    if isinstance(func, cst.Name):
        ctx.callees.add(func)  # an unknown callee is NPR003's
    if isinstance(func, cst.Name):
        name, full = func.value, ctx.imports.qualify(func, ctx.locals) or ""
        # (`from math import exp, sqrt`: the math module's functions, as `math.exp(x)` is)
        if qual is None and name not in ctx.locals and name not in ctx.all \
                and name not in fx.SAFE_BUILTINS and full not in LIBRARY_CALLS and full.split(".")[0] != "math" \
                and not special_function_call(node, full, ctx.locals):
            if name in _BUILTIN_NAMES:  # (ctx.bound holds the builtins too)
                ctx.sink.report("NPR003", f"call to the builtin `{name}()`, which np2ref does not translate",
                                ctx.span(node), hint="call it outside the converted function")
            elif ctx.bound is not None and name in ctx.bound:  # the module's class (or object)
                ctx.sink.report("NPR003", f"call to `{name}()`, a class or object of this module: np2ref "
                                "translates the module's functions, not classes and their methods",
                                ctx.span(node), hint="make the object outside the converted function and pass "
                                "its arrays in as arguments (`run(sim.u, sim.alpha)`)")
            else:
                ctx.sink.report("NPR003", f"call to `{name}()`, which np2ref cannot see into",
                                ctx.span(node),
                                hint="define it in the same module, or call it outside the converted function")
    elif isinstance(func, cst.Attribute) and qual is None:
        full = ctx.imports.qualify(func, ctx.locals)
        if full is not None and full.split(".")[0] != "math" and full not in PURE_CALLS \
                and full not in LIBRARY_CALLS and not special_function_call(node, full, ctx.locals):
            ctx.sink.report("NPR003", f"call to `{dotted(func)}()` from another library is not translated",
                            ctx.span(node), hint="call it outside the converted function")


@plans(cst.Call, order=40)
def plan_where_one_argument(node: cst.Call, ctx) -> bool:
    args = positional(node)
    if node in ctx.m.where_masks:
        return True  # `a[np.where(m), d] op= v`: m's positions (rules/mask_trail.py)
    if ctx.numpy_name(node.func) == "numpy.where" and len(node.args) == 1 and args and not args[0].star:
        message, hint = not_in_table("numpy.where", one_argument=True)
        ctx.sink.report("NPR004", message, ctx.span(node), hint=hint)
        return True
    return False


# np.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None): its parameters
_NDARRAY_PARAMS = ("shape", "dtype", "buffer", "offset", "strides", "order")


@plans(cst.Call, order=45)
def plan_ndarray_constructor(node: cst.Call, ctx) -> bool:
    """`np.ndarray(shape, dtype)` as a constructor: np.empty (NumPy leaves its contents
    uninitialised, so zeros are one of its values). An array over another object's memory
    (buffer=, offset=, strides=) or with a layout (order=) is refused: NPR004."""
    if ctx.numpy_name(node.func) != "numpy.ndarray":
        return False
    ctx.m.skip_numpy.add(node.func)
    ctx.inner.add(node.func)
    named = [_NDARRAY_PARAMS[i] if i < len(_NDARRAY_PARAMS) else "*" for i, a in enumerate(node.args)
             if a.keyword is None and not a.star] + [a.keyword.value if a.keyword else "*" for a in node.args
                                                      if a.keyword is not None or a.star]
    other = [n for n in named if n not in ("shape", "dtype")]
    if other:
        what = "unpacked arguments" if other[0] == "*" else f"`{other[0]}=`"
        ctx.sink.report("NPR004", f"`np.ndarray(...)` with {what} is not translated: only "
                        "`np.ndarray(shape, dtype)`, an uninitialised array, is", ctx.span(node),
                        hint="an array over another array's memory is a view of it: write a slice and "
                        "`.reshape(shape)` (or `.view(dtype)`) of that array; for a new array use "
                        "np.empty(shape, dtype); see `np2ref explain NPR004`")
        return True
    ctx.m.special_calls[node] = ("ndarray", None)
    return True


@emits_special("ndarray")
def emit_ndarray_constructor(original, updated, detail, ctx):
    """np.ndarray(shape, dtype) -> jnp.zeros(shape, dtype), as np.empty."""
    return updated.with_changes(func=J.name(f"{J.JNP}.zeros"))


@plans(cst.Call, order=50)
def plan_random_draw(node: cst.Call, ctx) -> bool:
    """`np.random.normal(...)`, `rng.normal(...)`: a draw made on the host at run time (npr_random).
    The module analysis made every other call of a draw method host code (analysis/module.py)."""
    func = node.func
    qual = ctx.numpy_name(func)
    if qual is not None:
        if not is_random_draw(qual) and qual != RANDOM_SEED:  # (a seed only where np2ref.compile asks: analysis/module.py)
            return False
    elif not (isinstance(func, cst.Attribute) and func.attr.value in RANDOM_DRAWS
              and isinstance(func.value, cst.Name)):
        return False
    elif ctx.imports.qualify(func, frozenset(ctx.f.roots)) is not None:
        return False  # a module's function (`math.gamma(2.5)`, `math.pow`): not a generator's draw
    # `from numpy.random import rand; rand()`: the function itself, which npr_call draws from
    ctx.m.special_calls[node] = ("random", func.attr.value if isinstance(func, cst.Attribute) else None)
    ctx.m.skip_numpy.add(func)
    return True


@plans(cst.Call, order=55)
def plan_is_integer(node: cst.Call, ctx) -> bool:
    """`float(x[0]).is_integer()`, `x[i].is_integer()`: Python's and NumPy's scalar method on a
    value that may be traced (npr_is_integer)."""
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "is_integer" and not node.args \
            and ctx.imports.qualify(func, ctx.locals) is None:
        ctx.m.special_calls[node] = ("is_integer", None)
        ctx.inner.add(func)
        return True
    return False


@emits_special("is_integer")
def emit_is_integer(original, updated, detail, ctx):
    return J.call(J.IS_INTEGER, updated.func.value)


@plans(cst.Call, order=60)
def plan_checked_call(node: cst.Call, ctx) -> bool:
    if ctx.numpy_name(node.func) is None and (calls_through_parameter(node.func, ctx.f.params, ())
                                              or namespace_method(node.func, ctx)):
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and not ctx.f.mutated_params \
                and not namespace_method(func, ctx) and not any(a.star for a in node.args):
            # `sampler.sample(n)` on an object passed in, in a function that writes no argument:
            # an ordered host call when not a module's or generator's (rt/opaque.py npr_opaque)
            ctx.m.special_calls[node] = ("opaque", func.attr.value)
            ctx.inner.add(func)
            return True
        ctx.m.special_calls[node] = ("checked_call", None)  # npr_call: checked when traced
        ctx.inner.add(node.func)
        return True
    return False


@plans(cst.Call, order=90)
def plan_numpy_call(node: cst.Call, ctx) -> bool:
    """Any other NumPy call is a plain function of its arguments (rules/names.py maps the name)."""
    return ctx.numpy_name(node.func) is not None


@plans(cst.Call, order=110)
def plan_module_call(node: cst.Call, ctx) -> None:
    for callee in ctx.module_callees(node.func):
        _module_call(ctx, node, callee)


def _module_call(ctx, node: cst.Call, callee: str) -> None:
    facts = ctx.all[callee]
    unpacked = [a for a in node.args if a.star]
    if unpacked and (facts.mutated_params or facts.returns_alias):  # its own locals do not matter
        what = "writes" if facts.mutated_params else "returns a view of"
        named = sorted(facts.mutated_params or facts.returns_alias)
        ctx.sink.report(
            "NPR208", f"`{unpacked[0].star}` arguments to {callee}(), which {what} its parameter(s) "
            f"{', '.join(named)}: np2ref does not follow arrays through unpacked arguments",
            ctx.span(node), notes=[Note(f"{callee}() is defined here", ctx.span(facts.node))],
            hint=f"pass each argument of {callee}() by position or by name")
        return
    pairs = call_params(node, facts)
    for arg, pname in pairs:
        if pname is not None and pname in facts.ref_names and not (
                pname in facts.maybe_scalar and number_literal(arg)):
            # (a number passed where `t = t0; t += h` may rebind: immutable, nothing to own; a
            # Ref of it was rebound each iteration, the loop peeled one iteration at a time)
            if (attribute_written(ctx, arg) != (None, None) or opaque_view(ctx, arg)) and not mark_ref(ctx, arg):
                # `heat_step(sim.u)`, `step(np.flip(u))`: an object's array, an unmodelled view; a copy passed would not do
                refuse_write_target(ctx, arg, arg, f"{callee}() writes it")
            else:
                mark_ref_or_own(ctx, arg)
    if facts.returns_alias and node not in ctx.m.own_form and node not in ctx.m.unpacked_refs and \
            not any(node is a.value for a in ctx.f.identity_items) and not returns_through(ctx.f, node):
        ctx.m.value_wrap.add(node)  # (npr_returned checks identity_items; `return lap(u, u)`: u's Ref)
    check_shared_buffers(ctx, node, callee, facts, pairs)
    check_written_defaults(ctx, node, callee, facts, {p for _, p in pairs})


# -- emitting --------------------------------------------------------------------------------
@emits(cst.Assign, order=10)
def emit_identity_bind(original: cst.Assign, updated: cst.Assign, ctx):
    """`x = f(x)` binds x to x: the call is the statement. Checked forms (analysis/identity.py):
    `npr_returned(f(x), x)`; `e, m = npr_returned(run(A, k), items=(None, None, A))` binds the
    items that are not returned as themselves."""
    if original not in ctx.f.identity_binds:
        return None
    kept = ctx.f.identity_items.get(original)
    if kept is None:
        return cst.Expr(updated.value, semicolon=updated.semicolon)
    target = original.targets[0].target
    if isinstance(target, cst.Name):
        return cst.Expr(J.call(J.RETURNED, updated.value, cst.Name(kept[0])), semicolon=updated.semicolon)
    # an item the callee only reads was passed loaded: it comes back as that value, not the
    # caller's Ref, and the caller's name keeps its Ref (`...`: not checked, nothing bound)
    facts = ctx.facts[original.value.func.value]
    spec = cst.Tuple([cst.Element(cst.Name("None") if k is None else cst.Ellipsis()
                                  if p not in facts.ref_names else cst.Name(k))
                      for k, p in zip(kept, facts.returned.items)])
    value = J.call(J.RETURNED, updated.value, items=spec)
    bound = [e.value.value for e, k in zip(target.elements, kept) if k is None]
    if not bound:
        return cst.Expr(value, semicolon=updated.semicolon)
    ctx.pending_own.extend(n for n in bound if n in ctx.f.ref_names)  # (as stores.emit_own_after)
    names = cst.parse_expression(", ".join(bound))
    return cst.Assign([cst.AssignTarget(names)], value, semicolon=updated.semicolon)


@emits(cst.Call, order=20)
def emit_call(original: cst.Call, updated: cst.Call, ctx):
    result: cst.BaseExpression = updated
    special = ctx.m.special_calls.get(original)
    if isinstance(original.func, cst.Attribute) and original.func.attr.value in _REMOVED_METHODS \
            and ctx.imports.qualify(original.func, frozenset(ctx.f.roots)) is None:
        func = J.call("npr_attribute", updated.func.value, J.string(original.func.attr.value))
        result = updated.with_changes(func=func)
    elif special is not None:
        kind, detail = special
        result = SPECIALS[kind](original, updated, detail, ctx)
    elif original in ctx.m.ref_form:
        result = emit_view_call(original, updated, ctx)
    elif _copy_in_order(original, ctx):
        # `x.T.copy(order="F")`, `np.copy(x, order="F")`: the memory order changes no value, and
        # a JAX array has none
        result = updated.with_changes(args=[a for a in updated.args
                                            if a.keyword is None or a.keyword.value != "order"])
    elif isinstance(original.func, cst.Attribute) and original.func.attr.value in METHOD_SHIMS \
            and ctx.imports.qualify(original.func, frozenset(ctx.f.roots)) is None:
        # `x.mean()` on an array: the same NumPy-exact shim as `np.mean(x)`
        shim = _dtype_shim(original.func.attr.value, original, 1) or lookup(f"numpy.{original.func.attr.value}")
        if shim and shim.startswith("npr_np_"):
            result = cst.Call(J.name(shim), [cst.Arg(updated.func.value), *plain(updated.args)])
    elif isinstance(original.func, cst.Attribute) and original.func.attr.value == "item" \
            and ctx.imports.qualify(original.func, frozenset(ctx.f.roots)) is None \
            and all(a.keyword is None and not a.star for a in original.args):
        # `x.max().item()`: a Python scalar of array data (traced: weakly typed, as float() gives)
        result = cst.Call(J.name(J.PYITEM), [cst.Arg(updated.func.value), *plain(updated.args)])
    elif isinstance(original.func, cst.Attribute) and original.func.attr.value == "astype" \
            and ctx.imports.qualify(original.func, frozenset(ctx.f.roots)) is None:
        # `x.astype(int)` on an array: NumPy's float -> integer cast (x86-64), not XLA's saturating one
        result = cst.Call(J.name(J.ASTYPE), [cst.Arg(updated.func.value), *plain(updated.args)])
    elif ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots)) in _INT_TYPES and len(original.args) == 1 and original.args[0].keyword is None:
        # `np.uint8(x)`: NumPy's float -> integer cast, not XLA's saturating one
        result = cst.Call(J.name(J.SCALAR_TYPE), [cst.Arg(updated.func), *plain(updated.args)])
    elif _dtype_shim((ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots)) or "")[6:], original, 2):
        # `np.sum(x, dtype=np.int32)`: a float x cast as NumPy casts it before it is summed
        shim = _dtype_shim(ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots))[6:], original, 2)
        result = cst.Call(J.name(shim), plain(updated.args))
    elif (converted := convert_sequences(original, updated, ctx)) is not None:
        # `np.max([a, b, c])`, `np.meshgrid(range(4), range(3))`: NumPy makes arrays of them
        result = converted
    elif _slice_reduction(original, ctx):
        # `np.max(t[i, i + 1:j])`: a slice whose length the loop variables decide
        result = updated.with_changes(func=J.name(_slice_reduction(original, ctx)))
    elif (ctx.imports.qualify(original.func, frozenset(ctx.f.roots)) or "").startswith("scipy.special."):
        # SciPy's own call while tracing on values known then, a host call at run time on traced data
        result = cst.Call(J.name(J.SPECIAL), [cst.Arg(updated.func), *updated.args])
    elif _library_shim(original, ctx) is not None:  # scipy's tridiagonal solve...
        result = cst.Call(J.name(_library_shim(original, ctx)), plain(updated.args))
    elif _is_math_of_data(original, ctx):
        result = updated.with_changes(func=cst.Name(J.MATH), args=[cst.Arg(updated.func), *updated.args])
    elif _is_int_of_data(original, ctx.f.roots):
        result = J.call({"int": J.INT, "float": J.FLOAT, "bool": J.BOOL}[original.func.value], updated.args[0].value)
    elif _is_builtin_of_data(original, ctx.f.roots):
        result = J.call(J.BUILTINS[original.func.value], *(a.value for a in updated.args), **pick_uses.keywords(original, ctx))
    elif original in ctx.m.apart:
        args = list(updated.args)
        for i, written in ctx.m.apart[original].items():
            checked = J.call(J.APART, args[i].value, *(args[j].value for j in written))
            args[i] = args[i].with_changes(value=checked)
        result = updated.with_changes(args=args)
    if original in ctx.m.value_wrap:
        result = J.call(J.VALUE, result)
    return kind_of_call(original, guard_where(original, result, ctx), ctx)  # (np.zeros(()): 0-d; where_guard.py)


@emits_special("checked_call")
def emit_checked_call(original, updated, detail, ctx):
    """A callee reached through a parameter: pure or refused when traced. `xp.zeros_like(x)`, with
    `numpy.zeros_like` a plain function of np2ref's table, names its translation too: npr_xp runs
    that when `xp` is NumPy (array-API style code: `def f(x, xp)` called with xp=np)."""
    found = namespace_translation(original)
    if found is not None:
        namespace, path, translation = found
        method = method_shim(path) if namespace.value in maybe_namespaces(ctx.f.node, ctx.f.params) else None
        # (`xp.clip(a, -1, 1.5)`, xp maybe an array: npr_xp calls its method, npr_np_clip(xp, a, ...), then)
        func = J.call(J.NAMESPACE_CALL, updated.func.value if path == updated.func.attr.value else namespace,
                      J.string(path), cst.parse_expression(translation), *([J.name(method)] if method else []))
        return updated.with_changes(func=func)
    return cst.Call(J.name(J.CHECKED_CALL), [cst.Arg(updated.func), *plain(updated.args)])


@emits_special("random")
def emit_random(original, updated, detail, ctx):
    """The generator (`np.random`, `rng`) as itself, the draw by name; an imported draw
    (`rand()`) through npr_call, which finds its generator."""
    if detail is None:
        return cst.Call(J.name(J.CHECKED_CALL), [cst.Arg(updated.func), *plain(updated.args)])
    return cst.Call(J.name(J.RANDOM), [cst.Arg(updated.func.value), cst.Arg(J.string(detail)),
                                        *plain(updated.args)])


def _library_shim(call: cst.Call, ctx) -> str | None:
    """The runtime shim of a library call with an exact JAX counterpart (analysis/library_table.py)."""
    return LIBRARY_CALLS.get(ctx.imports.qualify(call.func, frozenset(ctx.f.roots)) or "")


def _is_math_of_data(call: cst.Call, ctx) -> bool:
    """`math.sqrt(T)`, `math.gamma(t)` on something that may be traced: npr_math runs the math
    function itself on concrete values, its traced counterpart (analysis/library_table.py) on
    traced ones, and refuses one without (NPR031, naming the function)."""
    qual = ctx.imports.qualify(call.func, frozenset(ctx.f.roots))
    if qual is None or not qual.startswith("math.") or not callable(getattr(math, qual[5:], None)) or not call.args:
        return False
    if any(a.star or a.keyword is not None and qual != "math.isclose" for a in call.args):
        return False  # (math.isclose's tolerances are keywords: rel_tol=, abs_tol=)
    return not all(is_static_meta(a.value) for a in call.args)


def _is_int_of_data(call: cst.Call, local_names) -> bool:
    """`int(x)` / `float(x)` / `bool(x)` on a value that may be array data (not a literal, a
    shape, a size or len())."""
    if not (isinstance(call.func, cst.Name) and call.func.value in ("int", "float", "bool")
            and call.func.value not in local_names
            and len(call.args) == 1 and call.args[0].keyword is None and call.args[0].star == ""):
        return False
    arg = call.args[0].value
    while isinstance(arg, (cst.BinaryOperation, cst.UnaryOperation)):
        if isinstance(arg, cst.UnaryOperation):
            arg = arg.expression
        elif is_static_meta(arg.left):
            arg = arg.right
        elif is_static_meta(arg.right):
            arg = arg.left
        else:
            return True
    return not is_static_meta(arg)


def _is_builtin_of_data(call: cst.Call, local_names) -> bool:
    """`max(1.0, x.max())`, `min(m, x[i])`, `any(x > 0)`: a builtin that compares or tests values
    Python would turn into bools, over one iterable, or given an argument that reads array data (a
    subscript or a call), or max/min given any name (`max(m, v)` on two traced scalars). npr_max &
    co. run the builtin on concrete values, so this only decides where the call is written: only
    literals and shapes stay (a loop index clamp `max(0, i - 1)` is rules/loop_forms.py's)."""
    if not (isinstance(call.func, cst.Name) and call.func.value in J.BUILTINS
            and call.func.value not in local_names and call.args
            and all(a.keyword is None and a.star == "" for a in call.args)):
        return False
    if len(call.args) == 1:  # over an iterable: never the loop-index form, and exact when concrete
        return call.func.value != "round"  # (round(v): an int, by v's own __round__; round(v, n): npr_round)
    if call.func.value in ("any", "all"):
        return False
    if call.func.value in ("max", "min", "complex", "round"):
        return not all(is_static_meta(a.value) for a in call.args)

    class Reads(cst.CSTVisitor):
        found = False

        def visit_Subscript(self, node) -> None:
            Reads.found |= not is_static_meta(node)

        def visit_Call(self, node) -> None:
            Reads.found |= not is_static_meta(node)

    for a in call.args:
        run_visitor(a.value, Reads())
    return Reads.found


def is_static_meta(expr: cst.BaseExpression) -> bool:
    """A literal, an array's shape/size/ndim (or an element of its shape), or len(...)."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Subscript):
        expr = expr.value
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("shape", "size", "ndim"):
        return True
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "len"
