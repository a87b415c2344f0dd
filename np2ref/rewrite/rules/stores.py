"""Stores and bindings: `a[i] = v`, `a, b[j] = ...`, and names bound to arrays that are written.

What: a store into a view chain of a ref becomes a store through the Ref (`npr_at(u)[1:-1] = v`);
a name bound to a value that is written later becomes a Ref of its own (`jax.new_ref(np.zeros(n))`,
`npr_own(x + 1)`), or stays a reference when it is a view of one (`row = u[0]`). Why: a JAX array
cannot be written in place; a Ref can. Exact: NumPy's order is kept (a view of the buffer being
written is read when it is stored); a copy NumPy may make (`v = x[[0]]`) is owned when written.
Refused: containers of written arrays (NPR207), views made by opaque calls (NPR205), views of
written arrays returned by module functions (NPR203).
"""

from __future__ import annotations

import libcst as cst

from ...analysis import containers
from ...analysis import effects as fx
from ...analysis.aliases import makes_array
from ...analysis.names import dotted
from ...analysis.nodes import number_literal
from ...analysis.numpy_table import READ_ONLY_VIEW
from ...diagnostics import Note
from ...emit import jaxnames as J
from ..registry import emits, emits_special, plans
from .calls import call_params
from .views import attribute_written, chain_name, mark_ref, mark_write_target, may_copy, refuse_write_target

_FRESH_METHODS = frozenset({"copy", "astype"})


# -- planning --------------------------------------------------------------------------------
@plans(cst.Assign, order=10)
def plan_identity_bind(node: cst.Assign, ctx) -> bool:
    """`x = f(x)` with f returning x itself: the call alone (the Call planners mark it)."""
    return node in ctx.f.identity_binds


@plans(cst.Assign, order=30)
def plan_assign(node: cst.Assign, ctx) -> None:
    stores = 0
    for t in node.targets:
        stores += _count_stores(t.target)
    lazy = stores > 0 and any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets)
    for t in node.targets:
        _target(ctx, t.target, node.value, node, lazy)


@plans(cst.AnnAssign)
def plan_ann_assign(node: cst.AnnAssign, ctx) -> None:
    if node.value is not None:
        _target(ctx, node.target, node.value, node, False)


def _count_stores(target) -> int:
    if isinstance(target, (cst.Tuple, cst.List)):
        return sum(_count_stores(e.value) for e in target.elements)
    return int(isinstance(target, cst.Subscript))


def _target(ctx, target, value, stmt, lazy: bool) -> None:
    if isinstance(target, (cst.Tuple, cst.List)):
        elements = [e.value for e in target.elements]
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(elements):
            for t, v in zip(elements, value.elements):
                _target(ctx, t, v.value, stmt, lazy)
        elif _tuple_branches(value, len(elements)):
            # `l, r = (u[1:], u[:-1]) if c else (u[:-1], u[1:])`: each name is bound to one item
            # of either branch, a view of `u` as in a plain tuple (a copy saw none of u's writes)
            for branch in (value.body, value.orelse):
                for t, v in zip(elements, branch.elements):
                    _target(ctx, t, v.value, stmt, lazy)
        else:
            if ctx.roots_of(value) & ctx.f.mutated_roots and _unpacks_views(ctx, elements, value, stmt):
                return
            refs = [t.value for t in elements if isinstance(t, cst.Name) and ctx.is_ref(t.value)]
            if refs:
                ctx.m.own_after.setdefault(stmt, []).extend(refs)
            for t in elements:
                if isinstance(t, cst.Subscript):
                    store(ctx, t, stmt)
        return
    if isinstance(target, cst.Subscript):
        if isinstance(target.value, cst.Name) and not ctx.is_ref(target.value.value) and \
                target.value.value in containers.dict_names(ctx.f.bindings, ctx.f.params):
            if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and len(target.slice) == 1 \
                    and isinstance(target.slice[0].slice, cst.Index):
                ctx.m.dict_inserts.add(stmt)
            return  # `out[k] = v` into a local dict: a Python insertion (analysis/containers.py)
        store(ctx, target, stmt)
        if lazy or _same_buffer(ctx, target, value):
            # a view on the right is read when it is stored, as in NumPy; a view of the
            # buffer being written goes to the store as a view (NumPy's copy order matters)
            mark_ref(ctx, value)
        return
    if isinstance(target, cst.Name) and ctx.is_ref(target.value):
        _bind_ref(ctx, target, value, stmt)
    elif isinstance(target, cst.Attribute):
        refuse_write_target(ctx, target, stmt)


def _tuple_branches(value, n: int) -> bool:
    """`value` is `(a, b) if c else (d, e)`: a conditional expression of two n-tuples (or lists)."""
    return isinstance(value, cst.IfExp) and all(
        isinstance(b, (cst.Tuple, cst.List)) and len(b.elements) == n
        and not any(isinstance(e, cst.StarredElement) for e in b.elements) for b in (value.body, value.orelse))


def _number_born(f, name: str) -> bool:
    """Whether every binding of `name` (its `op=` aside) is a number literal (`t = 0.0`)."""
    values = [v for t, v in f.bindings if isinstance(t, cst.Name) and t.value == name and v is not None]
    return bool(values) and all(number_literal(v) for v in values)


def _same_buffer(ctx, target: cst.Subscript, value: cst.BaseExpression) -> bool:
    """`value` is a bare view chain (a subscript, `.T`, ...) of the storage `target` writes."""
    if not isinstance(value, (cst.Subscript, cst.Attribute, cst.Call)):
        return False
    name, base = chain_name(ctx, value), chain_name(ctx, target)
    return (name is not None and base is not None and ctx.is_ref(name.value)
            and bool(ctx.roots_of(name) & ctx.roots_of(base)))


# NumPy functions that return a tuple or a list (those of some arguments: _returns_sequence)
_SEQUENCE_RESULTS = frozenset(f"numpy.{n}" for n in """divmod modf frexp histogram histogram2d histogramdd
    nonzero meshgrid broadcast_arrays split array_split hsplit vsplit dsplit unravel_index tril_indices
    triu_indices diag_indices mask_indices linalg.eig linalg.eigh linalg.svd linalg.qr linalg.slogdet
    linalg.lstsq""".split())


def _returns_sequence(qual: str | None, call: cst.Call) -> bool:
    """Whether the NumPy call `call` (of qualified name `qual`) returns a tuple or list: always,
    or with retstep= (linspace), return_*= (unique), one argument (where), several (atleast_*d)."""
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    positional = sum(1 for a in call.args if a.keyword is None and not a.star)
    return qual in _SEQUENCE_RESULTS or (qual == "numpy.linspace" and ("retstep" in keywords or positional > 4)) \
        or (qual == "numpy.unique" and (any(k.startswith("return_") for k in keywords) or positional > 1)) \
        or (qual == "numpy.where" and positional == 1 and not keywords) \
        or (qual in ("numpy.atleast_1d", "numpy.atleast_2d", "numpy.atleast_3d") and positional > 1)


def _unpacks_views(ctx, elements, value, stmt) -> bool:
    """`u, v = s`, `p, q = np.split(s, 2)`, `a, b = halves(s)` where the storage of `s` is
    written: NumPy's u and v are views of it (rows, pieces) that see and make writes, where the
    translation's would be copies. A call that makes views is refused (NPR205); unpacking an
    array is checked when traced (`npr_unpack`: the items of a 1-D array are scalars, copies in
    NumPy too; rows of a 2-D one are views, NPR205). True when refused."""
    if isinstance(value, cst.Call):
        qual = ctx.numpy_name(value.func)
        callee = value.func.value if isinstance(value.func, cst.Name) else None
        if callee in ctx.all and ctx.all[callee].returns_alias and _unpacks_objects(ctx, value, callee, len(elements)):
            ctx.m.unpacked_refs.add(value)  # the Refs it returns, bound as they are (npr_own after)
            return False
        if qual in fx.OPAQUE_VIEW_FUNCTIONS or (callee in ctx.all and ctx.all[callee].returns_alias):
            ctx.sink.report("NPR205", f"unpacks views made by {dotted(value.func) or 'a call'}() of an array "
                            "that is written: NumPy's pieces share its storage (a write through one "
                            "reaches the other), where the translation's would be copies", ctx.span(stmt),
                            hint="index the array directly (`a[:, :k]`), or take `.copy()` of each piece if "
                            "copies are meant")
            return True
        return False
    if chain_name(ctx, value) is not None and not isinstance(value, cst.Call):
        ctx.m.checked_unpacks[stmt] = len(elements)
    return False


def _unpacks_objects(ctx, call: cst.Call, callee: str, n: int) -> bool:
    """`u, v = no_slip(u_new, v_new)`, the helper returning `u, v` (its parameters as themselves)
    on every path: each item is the very object passed (NumPy binds u to u_new's array), no view
    made by the helper. Exact where the helper holds each such parameter as a Ref (it writes it:
    the caller's Ref goes in and comes back, npr_own keeps it), or the argument is never written
    (a copy then is no different); an item that is no parameter shares no argument's storage."""
    facts = ctx.all[callee]
    returned = facts.returned
    if returned is None or not returned.unpacked or len(returned.items) != n or len(facts.item_alias) != n:
        return False
    passed = {p: arg for arg, p in call_params(call, facts)}
    for item, alias in zip(returned.items, facts.item_alias):
        if item is None:
            if alias:  # `return u[1:], v`: a view of an argument
                return False
        elif item not in facts.ref_names and item in passed and ctx.roots_of(passed[item]) & ctx.f.mutated_roots:
            return False  # a parameter only read: the callee's value is a load, the caller's a Ref
    return True


def store(ctx, target: cst.Subscript, stmt) -> None:
    """`target` is stored into: its base is emitted as a store proxy (`npr_at(base)[...]`)."""
    if mark_write_target(ctx, target.value, stmt):
        ctx.m.store_bases.add(target.value)


def _bind_ref(ctx, target: cst.Name, value: cst.BaseExpression, stmt) -> None:
    if isinstance(value, cst.Name) and ctx.is_ref(value.value) and _number_born(ctx.f, value.value):
        # `prev = total`, total born `0.0` and `op=`'d: a NumPy scalar while 0-d, an array once an
        # `op=` made one: npr_share decides when traced (its value, or the Ref itself)
        ctx.m.no_load.add(value)
        ctx.m.share_number.add(value)
        return
    if mark_ref(ctx, value):
        if may_copy(value, ctx.numpy_name) and (
                target.value in ctx.written_names or target.value in ctx.written_roots):
            # NumPy decides view or copy at run time; a copy that is written is a Ref of its own
            ctx.m.own_form.add(value)
        return
    if isinstance(value, (cst.Tuple, cst.List, cst.Dict, cst.Set)):
        ctx.sink.report("NPR207", f"`{target.value}` is a container holding arrays that are "
                        "written; containers of written arrays are not translated", ctx.span(stmt),
                        hint="keep each array in its own variable")
        return
    if isinstance(value, cst.Call) and _returns_sequence(ctx.numpy_name(value.func), value):
        ctx.sink.report("NPR207", f"`{target.value}` holds the tuple {dotted(value.func)}() returns, and "
                        "an array it holds is written later; containers of written arrays are not "
                        "translated", ctx.span(stmt),
                        hint=f"unpack it where it is made (`{target.value}, step = np.linspace(..., retstep=True)`)")
        return
    if _builds_list(value, ctx):
        ctx.sink.report("NPR207", f"`{target.value}` is a Python list written element by element: NumPy's list "
                        "holds each value with its own type (a float stored into `[0] * n` stays a float, "
                        "and `np.array(l)` is then float64), where an array would cast every value to one "
                        "dtype", ctx.span(stmt),
                        hint="make it an array with the dtype meant (`np.zeros(n)`, `np.zeros((m, n), int)`)")
        return
    name = chain_name(ctx, value)
    if isinstance(value, cst.Call):
        qual = ctx.numpy_name(value.func)
        if (qual in fx.OPAQUE_VIEW_FUNCTIONS or fx.copy_false(value, qual) or (qual is None and isinstance(
                value.func, cst.Attribute) and value.func.attr.value in fx.OPAQUE_VIEW_METHODS)) \
                and name is not None and ctx.is_ref(name.value):
            if qual == READ_ONLY_VIEW and target.value in ctx.written_names:
                ctx.sink.report("NPR205", f"`{target.value}` is a read-only view made by {dotted(value.func)}(), "
                                "and it is written: NumPy raises ValueError (assignment destination is "
                                "read-only) there", ctx.span(stmt),
                                hint="write into the array itself, or into a .copy() of the windows")
                return
            ctx.sink.report("NPR205", f"`{target.value}` is a view made by "
                            f"{dotted(value.func) or 'a call'}() of an array that is written; "
                            "such views are not modelled", ctx.span(stmt),
                            hint="index the array directly, or take a .copy() if a copy is meant")
            return
        if qual is not None and any(a.keyword is not None and a.keyword.value == "out" for a in value.args):
            ctx.m.own_form.add(value)  # `r = np.add(x, y, out=a[:4])`: NumPy returns `out`, a view of a
            return
        callee = value.func.value if isinstance(value.func, cst.Name) else None
        if callee in ctx.all:
            _check_returned_view(ctx, value, callee, target, stmt)
            ctx.m.own_form.add(value)
            return
        if qual is not None and target.value in ctx.f.maybe_scalar and not makes_array(qual):
            # `t = np.sum(a)` ... `t += a[0]`: a 0-d result is NumPy's scalar, which `op=` rebinds
            ctx.m.own_form.add(value)
            ctx.m.own_scalar.add(value)
            return
        if (isinstance(value.func, cst.Attribute) and value.func.attr.value == "copy"
                and isinstance(value.func.value, cst.Name) and value.func.value.value not in ctx.f.array_names
                and value.func.value.value not in ctx.f.mutated_params):  # (a written parameter: an array)
            ctx.m.own_form.add(value)  # `x = state.copy()`: npr_own refuses a list's or dict's copy
            return
        if qual is not None or (isinstance(value.func, cst.Attribute)
                                and value.func.attr.value in _FRESH_METHODS):
            ctx.m.new_ref.add(value)
            return
    if isinstance(value, cst.Attribute) and value.attr.value in fx.OPAQUE_VIEW_ATTRIBUTES:
        refuse_write_target(ctx, value, stmt)
        return
    ctx.m.own_form.add(value)
    held = attribute_written(ctx, value)[1]
    if held is not None:  # `u = sim.u` then `u[0] = 7.0`: NumPy writes the object's array
        ctx.m.own_held[value] = held
    if target.value in ctx.f.maybe_scalar and isinstance(value, (cst.BinaryOperation, cst.UnaryOperation,
                                                                 cst.Call, cst.Subscript)):
        # `dt = t_end - t`, `t = a.sum()`, `s = x[0, 0]` then `dt *= 0.5`: NumPy's 0-d result is a
        # scalar, which `op=` rebinds
        ctx.m.own_scalar.add(value)


def _builds_list(value, ctx) -> bool:
    """`[0] * n`, `[[0] * n for _ in range(m)]`, `list(...)`, `a + [b]`: a new Python list."""
    if isinstance(value, (cst.List, cst.ListComp)):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Multiply, cst.Add)):
        return _builds_list(value.left, ctx) or _builds_list(value.right, ctx)
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "list" \
        and "list" not in ctx.f.roots and "list" not in ctx.f.params


def _check_returned_view(ctx, call: cst.Call, callee: str, target: cst.Name, stmt) -> None:
    facts = ctx.all[callee]
    for arg, pname in call_params(call, facts):
        if pname in facts.returns_alias and pname not in facts.ref_names and \
                ctx.roots_of(arg) & ctx.f.mutated_roots:
            notes = [Note(f"{callee}() returns a view of its parameter `{pname}`", ctx.span(facts.node))]
            rebound = [t for t, _ in facts.bindings if t.value == pname]
            if rebound:  # `if c: v = v + a` ... `return v`: the caller's array, or a new one
                notes = [Note(f"{callee}() returns its parameter `{pname}` itself on one path and a new "
                              "array on another path, bound here: which one depends on the data",
                              ctx.span(rebound[0]))]
            ctx.sink.report(
                "NPR203", f"`{target.value}` may be a view of `{dotted(arg) or 'an argument'}` returned "
                f"by {callee}(), and one of them is written here", ctx.span(stmt), notes=notes,
                hint=f"return a copy from {callee}(), or write through `{dotted(arg)}` directly")


def written_roots(ctx) -> frozenset[str]:
    """The names a written name is bound to a view of (through any chain of names: `v0 = x[[0]]`,
    `v3 = v0.T`, then v3 is written): a copy bound to one of them must be a Ref of its own."""
    parents: dict[str, set[str]] = {}
    for target, value in ctx.f.bindings:
        base = chain_name(ctx, value) if isinstance(target, cst.Name) and value is not None else None
        if base is not None and base.value != target.value:
            parents.setdefault(target.value, set()).add(base.value)
    seen, stack = set(), list(ctx.written_names)
    while stack:
        for p in parents.get(stack.pop(), ()):
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return frozenset(seen)


# `hist.append(u)` and the other calls that put a value into a list, set or dict: the argument
# positions that are stored (insert's index and setdefault's key are not)
_INSERTS = {"append": 0, "insert": 1, "extend": 0, "add": 0, "setdefault": 1}


@plans(cst.Call, order=15)
def plan_container_insert(node: cst.Call, ctx) -> None:
    """`hist.append(u)` where `u` is written: NumPy's list holds the array itself, so it sees every
    write made after the append, and the translation's load would be a snapshot: NPR207, as for a
    container display. An element (`vals.append(x[i])`) is checked when traced: a scalar is a
    copy in NumPy too; a row of a 2-D `x` is a view (NPR207 then)."""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _INSERTS) or ctx.numpy_name(func):
        return
    position = _INSERTS[func.attr.value]
    args = [a for a in node.args if a.keyword is None]
    if len(args) <= position or not ctx.roots_of(args[position].value) & ctx.f.mutated_roots:
        return
    value = args[position].value
    if _element_read(value):
        ctx.m.special_calls[node] = ("element_insert", str(position))
        return
    ctx.sink.report("NPR207", f"`{dotted(func) or func.attr.value}()` puts an array that is written "
                    "into a container: NumPy's container holds the array itself and sees every later "
                    "write; containers of written arrays are not translated", ctx.span(node),
                    hint="put a copy (`.copy()`) in the container if the values at this point are meant")


def _element_read(value: cst.BaseExpression) -> bool:
    """`x[i]`, `x[i, j + 1]`: integer-looking indices only (a scalar, or a row that is a view)."""
    return isinstance(value, cst.Subscript) and all(
        isinstance(e.slice, cst.Index) and not isinstance(
            e.slice.value, (cst.Ellipsis, cst.List, cst.Tuple, cst.Comparison, cst.ListComp))
        and not (isinstance(e.slice.value, cst.Name) and e.slice.value.value == "None")
        for e in value.slice)


# builtins whose result holds references to their arguments' elements (rows of an array are views)
_HOLDING_BUILTINS = frozenset({"list", "tuple", "zip", "enumerate", "dict", "reversed", "sorted", "iter",
                               "set", "frozenset", "map", "filter"})


@plans(cst.Assign, order=5)
def plan_holding_call(node: cst.Assign, ctx) -> None:
    """`pairs = list(zip([u], w))`, `rows = list(u)` with `u` written: the container holds `u`
    itself or views of its rows (NPR207), as a display does. (A container returned is not:
    nothing the function runs writes after its return.)"""
    value = node.value
    for comp in _comprehensions(ctx, value):
        if _holds_views(ctx, comp):
            ctx.sink.report("NPR207", "this comprehension holds an array that is written, or views of its "
                            "rows: NumPy's container sees every later write; containers of written arrays "
                            "are not translated", ctx.span(comp),
                            hint="put copies (`r.copy()`) in the container if the values at this point are meant")
            return
    if _holding_call(ctx, value) and _held_roots(ctx, value) & ctx.f.mutated_roots:
        ctx.sink.report("NPR207", f"`{value.func.value}()` here holds an array that is written (or views "
                        "of its rows): NumPy's container sees every later write; containers of written "
                        "arrays are not translated", ctx.span(value),
                        hint="put copies (`.copy()`) in the container if the values at this point are meant")


_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _comprehensions(ctx, expr):
    """The comprehensions whose items a bound value holds: itself, or a holding builtin's argument."""
    if isinstance(expr, _COMPREHENSIONS):
        return [expr]
    if _holding_call(ctx, expr):
        return [c for a in expr.args for c in _comprehensions(ctx, a.value)]
    return []


def _holds_views(ctx, comp) -> bool:
    """`[r for r in s]`, `(u for _ in range(3))`, `[r[1:] for r in s]` with the storage of `s` or
    `u` written: the items are the array itself or views of it. (Element reads, `x[i]` or
    `r[0]`, and arithmetic make new values.)"""
    targets: set[str] = set()
    for_in = comp.for_in
    while for_in is not None:
        if _held_roots(ctx, for_in.iter) & ctx.f.mutated_roots:
            stack = [for_in.target]
            while stack:
                t = stack.pop()
                if isinstance(t, cst.Name):
                    targets.add(t.value)
                elif isinstance(t, (cst.Tuple, cst.List)):
                    stack += [e.value for e in t.elements]
        for_in = for_in.inner_for_in
    elt = comp.value if isinstance(comp, cst.DictComp) else comp.elt
    if isinstance(elt, cst.Subscript) and _element_read(elt):
        return False
    if isinstance(elt, cst.Call) or not isinstance(elt, (cst.Name, cst.Subscript, cst.Attribute)):
        return False
    if isinstance(elt, cst.Attribute) and (elt.attr.value not in fx.VIEW_ATTRIBUTES
                                              and elt.attr.value not in fx.OPAQUE_VIEW_ATTRIBUTES):
        return False  # `r.shape`, `r.sum`: metadata, not a view
    base = chain_name(ctx, elt)
    return base is not None and (base.value in targets or bool(ctx.roots_of(base) & ctx.f.mutated_roots))


def _holding_call(ctx, expr) -> bool:
    return (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name)
            and expr.func.value in _HOLDING_BUILTINS and expr.func.value not in ctx.locals)


def _held_roots(ctx, expr) -> set[str]:
    """The storage a holding builtin's result may share: its arguments', through nested ones."""
    if not _holding_call(ctx, expr):
        return ctx.roots_of(expr)
    out: set[str] = set()
    for a in expr.args:
        out |= _held_roots(ctx, a.value)
    return out


@plans(cst.AugAssign, order=5)
def plan_container_extend(node: cst.AugAssign, ctx) -> None:
    """`hist += [u]` on a list: as `hist.extend([u])`."""
    if isinstance(node.target, cst.Name) and node.target.value in containers.container_names(ctx.f) \
            and not ctx.is_ref(node.target.value) and ctx.roots_of(node.value) & ctx.f.mutated_roots:
        ctx.sink.report("NPR207", f"`{node.target.value} +=` puts an array that is written into a "
                        "container: NumPy's container holds the array itself and sees every later "
                        "write; containers of written arrays are not translated", ctx.span(node),
                        hint="put a copy (`.copy()`) in the container if the values at this point are meant")


# -- emitting --------------------------------------------------------------------------------
@emits(cst.Assign, order=40)
def emit_own_after(original: cst.Assign, updated: cst.Assign, ctx):
    """`a, b = f()` with a, b refs: each is owned on the next line (`a = npr_own(a)`)."""
    if original in ctx.m.own_after:
        ctx.pending_own.extend(ctx.m.own_after[original])
    return None


@emits(cst.SimpleStatementLine)
def emit_line(original, updated, ctx):
    updated = ctx.mark_line(original, updated)
    if not ctx.pending_own:
        return updated
    extra = [ctx.mark_line(original, cst.SimpleStatementLine([cst.Assign(
        [cst.AssignTarget(cst.Name(n))], J.call(J.OWN, cst.Name(n)))]))
             for n in dict.fromkeys(ctx.pending_own)]
    ctx.pending_own = []
    return cst.FlattenSentinel([updated, *extra])


@emits_special("element_insert")
def emit_element_insert(original, updated, detail, ctx):
    """`vals.append(npr_element(x[i], ...))`: refused when traced if `x[i]` is not a scalar."""
    position, args = int(detail), list(updated.args)
    what = J.string(f"{dotted(original.func) or 'a container insert'}()")
    args[position] = args[position].with_changes(value=cst.Call(
        J.name(J.ELEMENT), [cst.Arg(args[position].value), cst.Arg(what)]))
    return updated.with_changes(args=args)


@emits(cst.Assign, order=6)
def emit_checked_unpack(original: cst.Assign, updated: cst.Assign, ctx):
    """`u, v = npr_unpack(s, 2)`: NumPy's items of `s`, refused when traced if they are views."""
    n = ctx.m.checked_unpacks.get(original)
    if n is None:
        return None
    return updated.with_changes(value=J.call(J.UNPACK, updated.value, cst.Integer(str(n))))


@emits(cst.Assign, order=5)
def emit_dict_insert(original: cst.Assign, updated: cst.Assign, ctx):
    if original not in ctx.m.dict_inserts:
        return None
    target = updated.targets[0].target
    index = target.slice[0].slice
    key = index.with_changes(value=J.call(J.DICT_KEY, index.value))
    return updated.with_changes(targets=[updated.targets[0].with_changes(
        target=target.with_changes(slice=[target.slice[0].with_changes(slice=key)]))])
