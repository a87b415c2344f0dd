"""Small pieces rules/loops.py emits with: a loop's note (what became of it: `check
--explain-loops`, `explain()`), a keyword argument, and the other forms of a loop: the Pallas
kernel call of a top-level nest (np2ref.compile's loops="pallas", rewrite/pallas_loops.py), an
accumulation summed reordered (sums="reorder", rewrite/sum_reorder.py) and, by default, an
accumulation into one R[P] as an ordered fold (rewrite/ordered_fold.py)."""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..ordered_fold import fold_functions, fold_plan
from ..scalar_fold import scalar_fold_functions, scalar_fold_plan
from ..pallas_loops import PALLAS, kernel_plan, top_loops
from ..sum_reorder import SUMS, reorder_functions, sum_plan
from .control import uses


def _note(ctx, loop, var: str, verdict: str) -> None:
    """Record what became of a loop (ConversionResult.loops: `check --explain-loops`, `explain()`),
    by its node: its line is looked up when the notes are read (pipeline._loop_lines), so that a
    check, which does not read them, computes no positions for them."""
    ctx.loop_notes.append((loop, ctx.f.name if ctx.f is not None else "", var, verdict))


def _keyword(name: str, value) -> cst.Arg:
    return cst.Arg(value, keyword=cst.Name(name),
                   equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))


def sole_keywords(plan, carried) -> list[cst.Arg]:
    """`sole=(k, ...)`: the positions among the carried names of the rebound written arrays no
    other name shares (LoopPlan.sole; rt/rebinds.py links them after a loop that ran no trip)."""
    ks = [k for k, c in enumerate(carried) if c in plan.sole]
    return [_keyword("sole", cst.parse_expression(repr(tuple(ks))))] if ks else []


def opt_in_call(original, updated, plan, loop_call, lanes, ctx, carried=()):
    """The loop `npr_for(...)` (its lanes' functions `lanes`) as the opt-ins ask: sums="reorder"
    for a loop that only accumulates, loops="pallas" for a top-level nest; else an ordered fold
    for a loop that only adds into one R[P] or steps one carried accumulator; else as it is."""
    plain_range = len(loop_call.args) == 2 + bool(carried) and plan.kind == "range" and not (
        plan.rows or plan.unpack or plan.rotations or plan.unrotate or plan.python or plan.unroll)
    if carried:
        if plain_range and len(carried) == 1 and carried[0] in plan.defined_before:
            return _scalar_fold_call(original, updated, plan, loop_call, lanes, ctx, carried[0])
        return loop_call, lanes
    if SUMS.get() == "reorder" and plain_range:
        sp = sum_plan(original, plan.var, ctx.f)
        made = None if isinstance(sp, str) else reorder_functions(sp, plan.var, original, updated.body.body)
        if made is not None:
            _renote(ctx, original, plan.var, "sums reordered (sums='reorder'): npr_sum_for, the += accumulation "
                    f"into {', '.join(sp.stores)} as one contraction over its range, not NumPy's order")
            call = cst.Call(cst.Name(J.SUM_FOR), [*loop_call.args, *[cst.Arg(f.name) for f in made]])
            return call, [*lanes, *made]
    if PALLAS.get() and id(original) in top_loops(ctx.f.node):
        return _pallas_call(original, plan, loop_call, lanes, ctx)
    if plain_range and _accumulates(original):
        return _fold_call(original, updated, plan, loop_call, lanes, ctx)
    return loop_call, lanes


def _accumulates(loop) -> bool:
    """Whether the loop's body holds an `R[...] += ` or `-=` at its top level (a fold's candidate)."""
    return any(isinstance(s, cst.SimpleStatementLine) and any(
        isinstance(x, cst.AugAssign) and isinstance(x.operator, (cst.AddAssign, cst.SubtractAssign))
        and isinstance(x.target, cst.Subscript) for x in s.body) for s in loop.body.body)


def _fold_call(original, updated, plan, loop_call, lanes, ctx):
    """`npr_fold_for(range, _loop_k, _reads_k, _trip_k, _fold_k)` for a loop that only adds into
    one R[P] (rewrite/ordered_fold.py); else the loop, its note saying why it is no fold."""
    fp = fold_plan(original, plan.var, ctx.f)
    made = fp if isinstance(fp, str) else fold_functions(fp, plan.var, original, updated.body.body)
    if isinstance(made, str):
        _renote(ctx, original, plan.var, f"{_verdict(ctx, original)}; not an ordered fold: {made}")
        return loop_call, lanes
    _renote(ctx, original, plan.var, f"an ordered fold: npr_fold_for, the += into {fp.stores[0]} as one chain "
            "of additions in NumPy's order, every trip's reads made at once (the lax loop where the trip "
            "count is known only as it runs, and on a CPU outside a vectorised loop)")
    call = cst.Call(cst.Name(J.FOLD_FOR), [*loop_call.args, *[cst.Arg(f.name) for f in made]])
    return call, [*lanes, *made]


def _scalar_fold_call(original, updated, plan, loop_call, lanes, ctx, acc):
    """`acc = npr_fold_for(range, _loop_k, _reads_k, _trip_k, _step_k, acc)` for a loop whose
    only carried value is one accumulator (rewrite/scalar_fold.py); else the loop, its note saying
    why it is no fold."""
    at = scalar_fold_plan(original, plan.var, acc, ctx.f)
    made = at if isinstance(at, str) else scalar_fold_functions(at, plan.var, acc, original, updated.body.body)
    if isinstance(made, str):
        _renote(ctx, original, plan.var, f"{_verdict(ctx, original)}; not an ordered fold: {made}")
        return loop_call, lanes
    _renote(ctx, original, plan.var, f"an ordered fold: npr_fold_for, every trip's value of {acc} computed at "
            f"once, then the steps of {acc} as one chain in NumPy's order (the lax loop where the trip count is "
            "known only as it runs, and on a CPU outside a vectorised loop)")
    args = loop_call.args
    call = cst.Call(cst.Name(J.FOLD_FOR), [*args[:2], *[cst.Arg(f.name) for f in made], args[2]])
    return call, [*lanes, *made]


def _same_loop(ctx, a, b) -> bool:
    return (ctx.span(a).line, ctx.span(a).col) == (ctx.span(b).line, ctx.span(b).col)


def _verdict(ctx, loop) -> str:
    """The loop's note so far ("a lax loop: ..."), "a lax loop" without one."""
    return next((n[3] for n in reversed(ctx.loop_notes) if _same_loop(ctx, n[0], loop)), "a lax loop")


def _renote(ctx, loop, var, verdict) -> None:
    """The loop's note replaced by `verdict`."""
    ctx.loop_notes[:] = [n for n in ctx.loop_notes if not _same_loop(ctx, n[0], loop)]
    _note(ctx, loop, var, verdict)


def _pallas_call(original, plan, loop_call, lanes, ctx):
    """`npr_pallas(_pallas_j, names, values, lambda: npr_for(...))` for a top-level nest that
    rewrite/pallas_loops.py writes as a kernel (np2ref.compile's loops="pallas"); else the loop."""
    inside = {id(n) for _, _, n in uses(original.body, ctx.f.store_names).items}
    outside = {n for n, _, node in uses(ctx.f.node.body, ctx.f.store_names).items if id(node) not in inside}
    kp = kernel_plan(original, f"_pallas_{plan.var}", ctx.m.loops, outside)
    if isinstance(kp, str):
        _note(ctx, original, plan.var, f"not a Pallas kernel: {kp}")
        return loop_call, lanes
    _note(ctx, original, plan.var, "a Pallas kernel (loops='pallas'; the lax loop where it cannot run)")
    kernel = cst.parse_module(kp.source).body[0]
    names = cst.Tuple([cst.Element(cst.SimpleString(repr(n))) for n in kp.names] + ([] if len(kp.names) != 1 else []))
    values = cst.Tuple([cst.Element(cst.Name(n)) for n in kp.names])
    call = cst.Call(cst.Name(J.PALLAS), [cst.Arg(cst.Name(kernel.name.value)), cst.Arg(names), cst.Arg(values),
                                         cst.Arg(cst.Lambda(cst.Parameters(), loop_call)),
                                         _keyword("line", cst.Integer(str(ctx.span(original).line)))])
    return call, [*lanes, kernel]
