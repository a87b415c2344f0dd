"""Names: loads of refs, NumPy names mapped to their jnp spelling or shim, names that are no
expressions (attributes, keywords, targets), and the name diagnostics.

What: a ref name read as a value is loaded (`u` -> `u[...]`, `npr_load(u)` when it may be a
scalar); `np.sqrt` -> `jnp.sqrt` (or the table's shim, analysis/numpy_table.py). Refused: NumPy
names np2ref does not map (NPR004), names bound nowhere in the module (NPR019), a name imported as
two different modules (NPR024).
"""

from __future__ import annotations

import libcst as cst

from ...analysis import effects as fx, pick_uses
from ...analysis.numpy_table import lookup, not_in_table
from ...emit import jaxnames as J
from ..registry import emits, emitters, plans

_KEEP_NUMPY = frozenset({"numpy.s_", "numpy.index_exp", "numpy.newaxis"})


# -- planning --------------------------------------------------------------------------------
@plans(cst.Attribute)
def plan_attribute(node: cst.Attribute, ctx) -> None:
    ctx.inner.add(node.value)
    ctx.m.not_expr.add(node.attr)
    if node not in ctx.inner and node not in ctx.m.skip_numpy:
        _check_numpy_name(ctx, node)
    _check_array_attribute(ctx, node)
    if node.attr.value in fx.METADATA_ATTRIBUTES and isinstance(node.value, cst.Name) \
            and ctx.is_ref(node.value.value):
        ctx.m.no_load.add(node.value)


@plans(cst.Subscript, cst.For, order=0)
def plan_flat_read(node, ctx) -> None:
    """`x.flat[k]`, `for v in x.flat`: NumPy's flatiter read, the flattened array's elements."""
    flat = node.value if isinstance(node, cst.Subscript) else node.iter
    if isinstance(flat, cst.Attribute) and flat.attr.value == "flat" and ctx.numpy_name(flat) is None:
        ctx.m.flat_reads.add(flat)


# Array methods whose NumPy function is refused for its data-dependent result shape, which
# jax.Array's namesake would otherwise run (`x.compress([True, False, True])`: JAX's raw TypeError)
_DATA_SHAPE_METHODS = frozenset({"compress"})


def _check_array_attribute(ctx, node: cst.Attribute) -> None:
    """`.flat` other than indexed or iterated (`f = x.flat`, `return x.flat`): NumPy's flatiter,
    a live iterator over the array's memory, which np2ref does not model (JAX has no `.flat`);
    `x.compress(c)`, refused as np.compress is."""
    name = node.attr.value
    if name != "flat" and name not in _DATA_SHAPE_METHODS or ctx.imports.qualify(node, frozenset(ctx.f.roots)):
        return
    if name == "flat" and node not in ctx.m.flat_reads:
        ctx.sink.report("NPR004", "`.flat` is translated only indexed (`x.flat[k]`) or iterated "
                        "(`for v in x.flat`): NumPy's flatiter object is not modelled", ctx.span(node),
                        hint="index it where it is read, or use x.ravel() / x.reshape(-1)")
    elif name in _DATA_SHAPE_METHODS:
        message, hint = not_in_table(f"numpy.{name}")
        ctx.sink.report("NPR004", message.replace(f"`np.{name}`", f"`.{name}()`"), ctx.span(node), hint=hint)


@plans(cst.Arg)
def plan_keyword(node: cst.Arg, ctx) -> None:
    if node.keyword is not None:
        ctx.m.not_expr.add(node.keyword)


@plans(cst.CompFor)
def plan_comprehension_target(node: cst.CompFor, ctx) -> None:
    stack = [node.target]
    while stack:
        t = stack.pop()
        if isinstance(t, cst.Name):
            ctx.m.not_expr.add(t)
        elif isinstance(t, (cst.Tuple, cst.List)):
            stack += [e.value for e in t.elements]


@plans(cst.Name)
def plan_name(node: cst.Name, ctx) -> None:
    if node in ctx.m.not_expr:
        return
    if node.value in ctx.f.ref_names and node.value in ctx.selections:
        # `v = b[m]` of a b that is written: NumPy's selection is a copy, npr_select's an
        # NprSelection, never a Ref to load (the analysis counts a subscript as b's view)
        ctx.m.no_load.add(node)
    if node.value in ctx.imports.clashes and node.value not in ctx.locals:
        ctx.sink.report("NPR024", f"`{node.value}` is imported as two different modules in this file",
                        ctx.span(node), hint="import each module under a name of its own")
        return
    if node not in ctx.inner and node not in ctx.m.skip_numpy and node.value not in ctx.locals:
        if ctx.bound is not None and node.value not in ctx.bound and node not in ctx.callees:
            ctx.sink.report("NPR019", f"`{node.value}` is not defined anywhere in this module",
                            ctx.span(node), hint="NumPy raises NameError here if this line runs; "
                            "np2ref traces every line, so it must be defined")
            return
        _check_numpy_name(ctx, node)


@plans(cst.Comparison)
def plan_identity(node: cst.Comparison, ctx) -> None:
    """`r is None`, `r is not a`: Python's identity of the objects, so a ref name is not loaded
    (`r = h(a)`, h returning `a` or falling through to None: `r[...] is None` raised TypeError on
    None and was False for every Ref)."""
    operands = [node.left] + [c.comparator for c in node.comparisons]
    for k, c in enumerate(node.comparisons):
        if isinstance(c.operator, (cst.Is, cst.IsNot)):
            for v in operands[k:k + 2]:
                if isinstance(v, cst.Name) and ctx.is_ref(v.value):
                    ctx.m.no_load.add(v)


def _check_numpy_name(ctx, node) -> None:
    qual = ctx.numpy_name(node)
    if qual is None or qual in _KEEP_NUMPY or lookup(qual) is not None:
        return
    parts = qual.split(".")
    if (len(parts) == 3 and parts[2] == "at") or qual in fx.INPLACE_FUNCTIONS or qual in fx.VIEW_FUNCTIONS:
        return
    message, hint = not_in_table(qual)
    ctx.sink.report("NPR004", message, ctx.span(node), hint=hint)


# -- emitting --------------------------------------------------------------------------------
@emits(cst.Name, order=0)
def emit_picked_read(original: cst.Name, updated: cst.Name, ctx):
    """A read in arithmetic of a name bound to a max()/min() (`dt = min(dt, t_end - t)`, then
    `u[1:] -= dt * (u[1:] - u[:-1])`), as the other rules emit it, through npr_picked: whether
    that arithmetic's dtype differs by the operand the data picked is checked where it runs
    (analysis/pick_uses.py)."""
    if original in ctx.f.store_names or original not in pick_uses.checked_reads(ctx.f.node):
        return None
    inner = updated
    for emit in emitters(cst.Name):
        if emit is not emit_picked_read and (out := emit(original, updated, ctx)) is not None:
            inner = out
            break
    return pick_uses.read_check(original, inner, ctx)


@emits(cst.Name)
def emit_name(original: cst.Name, updated: cst.Name, ctx):
    if original in ctx.m.no_load or original in ctx.m.not_expr:
        return updated
    if original in ctx.f.store_names:
        return updated
    name = original.value
    if name in ctx.f.ref_names:
        if name in ctx.f.maybe_scalar or _unwritten_param(ctx.f, name):
            return J.call(J.LOAD, updated)
        return J.load_all(updated)
    if original in ctx.m.inner:  # `np` in `np.zeros`: the attribute is rewritten whole
        return updated
    if name not in ctx.f.roots:
        qual = ctx.imports.qualify_numpy(original, frozenset(ctx.f.roots))
        if qual is not None and original not in ctx.m.skip_numpy:
            return _numpy(ctx, original, qual, updated)
    return updated


def _unwritten_param(facts, name: str) -> bool:
    """A parameter whose own value is never written but that is rebound to one that may be a Ref
    (`nxt = parent[i]; parent[i] = root; i = nxt`, union-find's path compression: `nxt` may be a
    view of `parent`): until then it holds what the caller passed, a Python int too, which
    `i[...]` cannot load (TypeError); npr_load passes it through and loads a Ref."""
    return name in facts.params and f"param {name}" not in facts.mutated_roots


@emits(cst.Attribute, order=20)
def emit_attribute(original: cst.Attribute, updated: cst.Attribute, ctx):
    if original in ctx.m.flat_reads:
        return J.call(J.FLAT, updated.value)
    if original in ctx.m.inner or original in ctx.m.skip_numpy:
        return updated
    qual = ctx.imports.qualify_numpy(original, frozenset(ctx.f.roots))
    if qual is not None:
        return _numpy(ctx, original, qual, updated)
    return updated


def _numpy(ctx, original, qual: str, updated):
    if qual in _KEEP_NUMPY:
        return J.name(f"{J.NP}.{qual[6:]}")
    replacement = lookup(qual)
    if replacement is None:
        message, hint = not_in_table(qual)
        ctx.sink.report("NPR004", message, ctx.span(original), hint=hint)
        return updated
    return cst.parse_expression(replacement)
