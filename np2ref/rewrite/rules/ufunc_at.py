"""UfuncAt: `np.add.at(a, idx, v)` (subtract, multiply, maximum, minimum; divide, floor_divide,
remainder, fmod, power and the logical and bitwise ones, applied one element at a time).

What: an unbuffered in-place update at indices that may repeat becomes the runtime's scatter
through the Ref: `np.add.at(a, idx, v)  ->  npr_ufunc_at('add', a, idx, v)`.
Exact: every repeated index contributes, as in NumPy (a scatter-add, not a store). Refused:
other ufuncs' `.at` (NPR101), a first argument that is not a view of a ref (NPR202/NPR205).

A masked index array, `np.add.at(counts, idx[inside], 1)`, `np.add.at(E, idx[m], e[m] * w)`
(the value elementwise in reads through the same mask, or holding no masked read): its
selection has a data-dependent length, so it is taken whole,
    -> npr_ufunc_at_masked('add', counts, npr_unmask(idx, inside), inside, 1)
and the entries the mask leaves out apply the ufunc's identity at index 0 (rt/masks.py), which
changes nothing there; exact for add, subtract, multiply, maximum and minimum (else NPR107).
"""

from __future__ import annotations

import libcst as cst

from ...analysis import effects as fx
from ...analysis.nodes import run_visitor
from ...emit import jaxnames as J
from ..registry import emits_special, plans
from ..syntax import plain, positional
from .mask_guard import guard_singular
from .mask_store import _may_be_mask, _slices_code, masked_parts
from .views import mark_write_target
from .whole_forms import pair_leaves

_MASKED_AT = frozenset({"add", "subtract", "multiply", "maximum", "minimum"})


@plans(cst.Call, order=70)
def plan_ufunc_at(node: cst.Call, ctx) -> bool:
    qual = ctx.numpy_name(node.func)
    parts = qual.split(".") if qual is not None else []
    if not (len(parts) == 3 and parts[2] == "at"):
        return False
    args = positional(node)
    ctx.m.skip_numpy.add(node.func)
    if parts[1] not in fx.UFUNC_AT:
        ctx.sink.report("NPR101", f"np.{parts[1]}.at is not translated", ctx.span(node),
                        hint="np2ref translates .at of add, subtract, multiply, maximum, minimum, divide, "
                        "floor_divide, remainder, fmod, power and the logical and bitwise and/or/xor")
    elif args and mark_write_target(ctx, args[0].value, node):
        paired = _plan_masked_index(ctx, node, args) if parts[1] in _MASKED_AT else None
        ctx.m.special_calls[node] = ("ufunc_at", parts[1] if paired is None else (parts[1], paired))
    return True


def _mask_reads(value, key: str) -> bool:
    """Whether `value` holds a read through the mask whose index code is `key`."""
    found = []

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, node) -> bool:
            if _slices_code(node) == key:
                found.append(node)
            return True
    run_visitor(value, Find())
    return bool(found)


def _plan_masked_index(ctx, node: cst.Call, args) -> bool | None:
    """For `np.<ufunc>.at(a, X[m], v)` with m that may be a boolean mask: whether v was made
    elementwise in masked reads (True: they and X[m] are unmasked, v's other leaves paired) or
    holds none (False: v as written, checked when traced); None leaves the call as it is."""
    if len(args) != 3 or len(node.args) != 3:
        return None
    index = args[1].value
    if not (isinstance(index, cst.Subscript) and len(index.slice) == 1 and isinstance(index.slice[0].slice, cst.Index)
            and isinstance(index.value, cst.Name)
            and _may_be_mask(index.slice[0].slice.value, ctx.bool_names, ctx.int_names)):
        return None
    value = args[2].value
    parts = masked_parts(value, index, ctx.imports, ctx.locals, ctx.all, ctx.int_names)
    if parts is None:
        if _mask_reads(value, _slices_code(index)):
            return None  # `np.cumsum(e[m])`: not elementwise in its masked reads
        masked, leaves = [], []
    else:
        masked, leaves = parts
        if not all(isinstance(n, cst.Subscript) and len(n.slice) == 1 for n in masked):
            return None  # (a rank, a new axis after the mask: their own forms)
    reads = [index, *masked]
    ctx.m.unmask.update(reads)
    ctx.m.unmask_read.update(reads)
    guard_singular(ctx, value, masked)
    pair_leaves(ctx, leaves, index.slice[0].slice.value)
    return bool(masked)


@emits_special("ufunc_at")
def emit_ufunc_at(original: cst.Call, updated: cst.Call, detail, ctx):
    if isinstance(detail, str):
        return cst.Call(J.name(J.UFUNC_AT), [cst.Arg(J.string(detail)), *plain(updated.args)])
    name, paired = detail
    target, index, value = (a.value for a in updated.args)
    mask = index.args[1].value  # npr_unmask(X, m) (rules/reads.py)
    return J.call(J.UFUNC_AT_MASKED, J.string(name), target, index, mask, value,
                  **({"paired": cst.Name("True")} if paired else {}))
