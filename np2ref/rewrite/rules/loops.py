"""ForRangeToLaxLoop: `for i in range(a, b, s):` into a lax loop whose compile time does not grow
with the trip count.

What: the body becomes a function of the loop variable and the loop-carried values; refs are
closed over (a lax loop cannot carry a jax.Ref), so writes to arrays happen in place.
    for t in range(steps):               def _loop_t(t, energy):
        energy += step(u, dt)      ->        energy += step(u, dt)
                                             return energy
                                         energy = npr_for(npr_range(steps), _loop_t, energy)
Carried: names the body assigns that are read before the body assigns them, or read anywhere
outside the loop. A buffer swap of written arrays (`cur, nxt = nxt, cur`) becomes a swap of their
contents (`npr_rotate`), exact because no other name can see those buffers (checked here). When
another name does see one (`cur = phi`, a parameter the caller owns), the swap is still exact if
that name is not used in the loop and the swap runs once per iteration of a `range` loop: after
the loop `npr_rotated` rebinds the names as NumPy left them and moves each buffer's contents
home (static trip count; checked at trace time), so the caller's buffer ends as in NumPy.

Exact: the body runs the same statements in the same order; `npr_for` runs a plain Python loop
instead when the body cannot be traced with a traced loop variable and the bounds are static
(e.g. it indexes a Python tuple with the loop variable). `for x in seq` / `np.ndindex` take the
item (rules/loop_forms.py); `break`/`continue` arrive as flags (frontend/jumps.py). Kept as a
Python loop (documented rule): loops over other expressions, with an `else:`, a `return` in the body, tuple targets, or
rebinding a written array other than by a swap (`x = f(x)`, where the module function f returns
that parameter as itself, is no rebinding: analysis/identity.py); and short loops whose bounds
are all integer literals with at most 16 iterations (direction loops, unrolled as NumPy reads them).
"""

from __future__ import annotations

import dataclasses
import re

import libcst as cst

from ...analysis import containers
from ...emit import jaxnames as J
from ...frontend.jumps import left_jumps
from ...frontend.rows import ROWS_HINT
from ..registry import emits, plans
from ..lanes import LanePlan, lane_plan, lanes_function, range_offsets
from ..tri_mirrors import tri_lanes
from ..syntax import plain, target_names
from . import loop_draws, unbound
from .. import recurrences
from .loop_appends import _names_tuple, append_only, append_through_branch, appends_arguments, appends_note, guarded_appends
from .while_histories import history_lists, history_note
from .loop_notes import _keyword, _note, opt_in_call, sole_keywords
from .control import Uses, condition, data_dependent_changes, scalar_rebinds, uses
from .rotations import rotation_finder
from .loop_forms import (index_min_max, parens, plain_range, reversed_range, item_form, loop_form, read_outside, rebinds_to_values, rebound_in_loops,
                         short_literal_range, sole_rebound, static_test, unroll_opt_in, written_outside)

FORM_REASON = "not a range/enumerate/zip/reversed loop"
SHORT_REASON = "short literal range"
BY_DESIGN = frozenset({FORM_REASON, SHORT_REASON})  # Python loops that need no note (NPR033)


@dataclasses.dataclass
class LoopPlan:
    var: str
    carried: tuple[str, ...]
    rotations: tuple = ()      # Assign nodes that swap written arrays
    kind: str = "range"        # range | reversed | enumerate | zip
    rows: tuple = ()           # names bound to `seq[var]` at the top of each iteration
    defined_before: frozenset = frozenset()  # carried names that have a value before the loop
    unrotate: tuple = ()       # the rotation npr_rotated undoes after the loop (names seen elsewhere)
    python: str = ""           # why npr_for must run the body as a Python loop ("" for a lax loop)
    unpack: tuple = ()         # `for i, j in seq:` (iter, ndindex): the names the item unpacks into
    unroll: bool = False       # `# np2ref: unroll` on the loop: no unroll limit (NPR035)
    fresh: tuple = ()          # written arrays each trip binds anew before reading, read after the loop:
    #                            carried out as values (the last trip's), loaded at the end of each trip
    appends: tuple = ()        # lists the body only appends to, once a trip: npr_for stacks them (loop_appends.py)
    sole: tuple = ()           # rebound written arrays no other name shares: linked after no trip (rt/rebinds.py)


def plan_loop(loop: cst.For, function_uses: Uses, facts, is_rotation, changed=()) -> LoopPlan | str:
    """A LoopPlan, or why the loop stays a Python loop. `changed`: the Python container changes
    in the loop (analysis/containers.py); one that outlives an iteration makes the plan's
    `python` say why npr_for runs the body as a Python loop."""
    form = loop_form(loop, frozenset(facts.roots))
    unpack = ()
    if form is None:
        form = item_form(loop, frozenset(facts.roots))
        if form is None:
            return FORM_REASON
        kind, var, unpack = form
        rows = ()
    else:
        kind, var, rows = form
    if loop.orelse is not None:
        return "for-else"
    if kind == "range" and short_literal_range(list(loop.iter.args)):
        return SHORT_REASON
    body = uses(loop.body, facts.store_names)
    if body.returns:
        return "return inside the loop"
    if left_jumps(loop.body):  # a loop frontend/jumps.py left as written: a body function cannot hold them
        return "break/continue in a loop whose variable is used after it"
    body_nodes = {id(n) for _, _, n in body.items}
    stored = [n for n, s, _ in body.items if s]
    first_store: dict[str, int] = {}
    read_before_store: set[str] = set()
    for i, (name, is_store, _) in enumerate(body.items):
        if is_store:
            first_store.setdefault(name, i)
        elif name not in first_store:
            read_before_store.add(name)
    # a name one branch of an inner `if` binds, read after it: the last iteration's value
    read_before_store |= unbound.read_before_bound(loop.body, list(loop.body.body), facts)
    # the loop's own targets are bound at the top of every iteration: a read of one before the
    # body rebinds it (`for r1, r2 in zip(a, a): r1 = r1[::-1]`) reads this item, nothing carried
    targets = {var, *rows, *unpack}
    read_before_store -= targets
    outside_reads = {n for n, s, node in function_uses.items if not s and id(node) not in body_nodes}
    for name in (var, *rows, *unpack):
        rebound = rebound_in_loops(facts.node, name, loop)
        if any(n == name and not s and id(node) not in body_nodes and id(node) not in rebound
               for n, s, node in function_uses.items):
            # Python leaves it bound to the last value: keep Python's loop
            return f"the loop variable `{name}` is read outside the loop"
    rotations, unrotate, fresh, rebound = [], [], [], []
    for name in dict.fromkeys(stored):
        if name in targets and name != var:
            continue  # an item name rebound in the body: each iteration binds it anew first
        if name not in facts.ref_names or name != var and scalar_rebinds(loop.body, name, facts):
            continue  # (`dt = dt0`, `dt *= 0.5`: carried; npr_for refuses it as an array Ref)
        if body.aug_only.get(name):
            continue  # `u += v` writes a ref in place (or rebinds a scalar: then it is carried)
        if name == var or not (name in read_before_store or name in outside_reads):
            if name != var:
                continue  # a fresh buffer made and used within one iteration
        found = is_rotation(loop.body, name, counted=kind == "range")
        if found is None and name != var and name not in read_before_store \
                and not written_outside(name, loop, facts):
            fresh.append(name)  # `rho, u = f(fin); u[0] = ...` each trip, u read after the loop
            continue
        if found is None and name != var and rebinds_to_values(loop.body, name, names_ok=True):
            # carried: npr_for runs the first iteration alone, then refills (rt/rebinds.py). A
            # view by its form (`row = a[i]`, the rows form's own binding, read
            # after the loop) stays a Python loop, as in a `while`: a refill cannot be that view
            rebound.append(name)
            continue
        if found is None:
            return f"the written array `{name}` is rebound in the loop"
        stmts, seen_elsewhere = found
        rotations += stmts
        unrotate += stmts if seen_elsewhere else []
    carried = tuple(n for n in dict.fromkeys(stored)
                    if n not in targets and (n not in facts.ref_names or n in facts.maybe_scalar or n in rebound)
                    and (n in read_before_store or read_outside(n, loop, function_uses, body_nodes, facts)))
    before, outlives = _defined_before(loop, function_uses, facts, body_nodes), read_before_store | outside_reads
    return LoopPlan(var, carried + tuple(n for n in fresh if n not in carried), tuple(dict.fromkeys(rotations)),
                    kind, rows, before, tuple(dict.fromkeys(unrotate)), python_reason(changed, outlives),
                    unpack, unroll_opt_in(loop), tuple(fresh), append_only(loop, changed, outlives, facts, before),
                    sole_rebound(rebound, facts))


def python_reason(changed, outlives) -> str:
    """Why a loop body runs as Python: it changes a container that outlives one iteration (read
    before the body binds it, or read outside the loop). "" when it changes none."""
    kept = [c for c in changed if c.name in outlives]
    return f"the body {kept[0].what}, a Python container change per iteration" if kept else ""


def plan_while(loop: cst.While, function_uses: Uses, facts, is_rotation) -> LoopPlan | str:
    """`while test:` -> npr_while: carried are the names the body assigns that the test reads,
    that the body reads before assigning, or that are read outside the loop."""
    if loop.orelse is not None:
        return "while-else"
    body = uses(loop.body, facts.store_names)
    if body.returns:
        return "return inside the loop"
    test = uses(loop.test, facts.store_names)
    loop_nodes = {id(n) for _, _, n in body.items} | {id(n) for _, _, n in test.items}
    stored = [n for n, s, _ in body.items if s]
    first_store: dict[str, int] = {}
    read_in_body: set[str] = set()  # read by the body before it binds them
    for i, (name, is_store, _) in enumerate(body.items):
        if is_store:
            first_store.setdefault(name, i)
        elif name not in first_store:
            read_in_body.add(name)
    read_in_body |= unbound.read_before_bound(loop, list(loop.body.body), facts)
    read_before_store = read_in_body | {n for n, _, _ in test.items} | \
        unbound.read_before_bound(loop, list(loop.body.body), facts, loop.test)
    outside_reads = {n for n in stored if read_outside(n, loop, function_uses, loop_nodes, facts)}
    rotations, rebound, fresh = [], [], []
    for name in dict.fromkeys(stored):
        if name not in facts.ref_names or scalar_rebinds(loop.body, name, facts):
            continue  # (`dt = dt0`, `dt *= 0.5`: carried; npr_while refuses it as an array Ref)
        if body.aug_only.get(name):
            continue
        if not (name in read_before_store or name in outside_reads):
            continue
        found = is_rotation(loop.body, name)
        if found is None and rebinds_to_values(loop.body, name):
            rebound.append(name)  # carried: npr_while refills it (rt/rebinds.py) or refuses
            continue
        if found is None and name not in read_in_body and not written_outside(name, loop, facts):
            # `U = 1.0 * Unew; U[mask] = 0` each trip, U read by the test or after the loop: the
            # trip's array carried out as its value (LoopPlan.fresh), as in a `for` loop
            fresh.append(name)
            continue
        if found is None:
            return f"the written array `{name}` is rebound in the loop"
        rotations += found[0]
    carried = tuple(n for n in dict.fromkeys(stored)
                    if (n not in facts.ref_names or n in facts.maybe_scalar or n in rebound)
                    and (n in read_before_store or n in outside_reads))
    return LoopPlan("", carried + tuple(n for n in fresh if n not in carried), tuple(dict.fromkeys(rotations)),
                    defined_before=_defined_before(loop, function_uses, facts, loop_nodes), fresh=tuple(fresh),
                    sole=sole_rebound(rebound, facts))


def _defined_before(loop, function_uses: Uses, facts, inside: set) -> frozenset:
    """Names stored (or parameters) before the loop's first name, in source order."""
    before = set(facts.params)
    for name, is_store, node in function_uses.items:
        if id(node) in inside:
            break
        if is_store:
            before.add(name)
    return frozenset(before)


# -- planning --------------------------------------------------------------------------------
@plans(cst.While)
def plan_while_loop(node: cst.While, ctx) -> None:
    plan = plan_while(node, ctx.function_uses, ctx.f, rotation_finder(ctx.f))
    if isinstance(plan, LoopPlan):
        names, lens, lasts = history_lists(node, ctx.f.node, ctx.f)
        if names:  # lists kept in chunks (rt/histories.py): no static NPR034 for their appends
            plan = dataclasses.replace(plan, appends=names)
            ctx.reported_changes.update(c.node for c in containers.changes(node, ctx.f, ctx.all) if c.name in names)
            ctx.m.special_calls.update((c, ("history_len", None)) for c in lens)
            ctx.m.history_last.update(lasts)
        ctx.m.loops[node] = plan
        ctx.m.rotations.update(plan.rotations)
        data_dependent_changes(ctx, node, node.test, "`while` loop")
    elif plan.endswith("is rebound in the loop") and static_test(node.test, ctx.f):
        # `while size <= N:` (sizes, Python ints): the test is concrete when traced, so the loop
        # runs as Python's, rebinding the array as the original does (a parameter that turns out
        # to be an array makes the test traced: NPR030 when the call is traced)
        ctx.sink.report("NPR033", f"this loop runs as a Python loop: {plan}", ctx.span(node),
                        hint="exact, but tracing takes one copy of the body per iteration: "
                        "compile time grows with the trip count", severity="info")
    else:
        ctx.sink.report("NPR011", f"this `while` loop is not translated: {plan}", ctx.span(node),
                        hint="assign the loop's state to plain names or swap whole arrays")


@plans(cst.For)
def plan_for_loop(node: cst.For, ctx) -> None:
    plan = plan_loop(node, ctx.function_uses, ctx.f, rotation_finder(ctx.f),
                     containers.changes(node.body, ctx.f, ctx.all))
    if isinstance(plan, LoopPlan):
        ctx.m.loops[node] = plan
        ctx.m.rotations.update(plan.rotations)
    if isinstance(plan, LoopPlan):
        index_min_max(node, plan, ctx)
    why = plan.python if isinstance(plan, LoopPlan) and not plan.appends else "" if isinstance(plan, LoopPlan) else plan
    if why and why not in BY_DESIGN:  # a loop that could be a lax loop but stays Python
        ctx.sink.report("NPR033", f"this loop runs as a Python loop: {why}", ctx.span(node.target),
                        hint="exact, but tracing takes one copy of the body per iteration: "
                        "compile time grows with the trip count", severity="info")
    names: set[str] = set()
    target_names(node.target, names)
    # a `range` item is a Python int: a name that may hold a scalar elsewhere reads as one
    # (npr_load); one that holds a written array elsewhere is refused below
    bad = sorted(n for n in names if ctx.is_ref(n) and not (_over_range(node.iter) and n in ctx.f.maybe_scalar))
    if bad and _over_range(node.iter):
        ctx.sink.report("NPR204", f"the loop variable `{bad[0]}` also names an array that is written "
                        "elsewhere in the function, which np2ref cannot follow", ctx.span(node.target),
                        hint="give the loop variable or the array another name")
    elif bad:  # the conversion is retried with such a loop indexed (frontend/rows.py) when the hint is ROWS_HINT
        zipped = isinstance(node.iter, cst.Call) and isinstance(node.iter.func, cst.Name) \
            and node.iter.func.value == "zip" and len(bad) < len(names)
        ctx.sink.report("NPR204", f"the loop variable `{bad[0]}` is a view of an array that is "
                        "written; iterating over rows of a written array is not translated yet",
                        ctx.span(node.target),
                        hint="loop over indices: `for i in range(len(a)): row = a[i]` (zip pairs the rows "
                        "with a sequence that is not a written array)" if zipped else ROWS_HINT)


def _over_range(it) -> bool:
    """`range(...)`: each item is a Python int, never a view of an array."""
    return isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range"


@emits(cst.Assign, order=20)
def emit_rotation(original: cst.Assign, updated: cst.Assign, ctx):
    """`cur, nxt = nxt, cur` of written arrays: a swap of their contents."""
    if original not in ctx.m.rotations:
        return None

    def paren(t):
        return cst.Tuple([cst.Element(e.value) for e in t.elements])
    return cst.Expr(J.call(J.ROTATE, paren(updated.targets[0].target), paren(updated.value)))


@emits(cst.For)
def emit_for_loop(original: cst.For, updated: cst.For, ctx):
    if original not in ctx.m.loops:
        _note(ctx, original, _target_text(original.target), "a Python loop (its NPR note says why)")
        return updated
    plan = ctx.m.loops[original]
    plan, fwd = recurrences.forwarding(original, plan, ctx)  # reads of earlier trips' stores, carried
    name = f"_loop_{plan.var}"
    carried = list(plan.carried)
    params = [cst.Param(cst.Name(plan.var))]
    head: list[cst.BaseStatement] = []
    if plan.unpack:  # `for i, j in seq:`
        head.append(cst.parse_statement(f"{', '.join(plan.unpack)} = {plan.var}"))
    if len(carried) == 1:
        params.append(cst.Param(cst.Name(carried[0])))
    elif carried:
        params.append(cst.Param(cst.Name("carry")))
        head.append(cst.parse_statement(f"{', '.join(carried)} = carry"))
    outs = [f"npr_trip_value({c})" if c in plan.fresh else c for c in carried]  # a trip's own Ref, as its value
    tail = [cst.parse_statement(f"return {', '.join(outs)}")] if carried else []
    rng, rows, hoisted = _loop_range(plan, updated.iter, frozenset(ctx.f.roots))
    head += [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(r))], value)])
             for r, value in rows]
    inner = list(updated.body.body)
    advance = loop_draws.draws_in_advance(original, inner, plan, ctx)
    if advance is not None:
        inner = advance[0]
    elif not plan.python:
        loop_draws.note_host_calls(original, inner, ctx)
    inner = fwd.body(inner) if fwd else inner
    body = cst.IndentedBlock(body=[*head, *inner, *tail])
    func = cst.FunctionDef(cst.Name(name), cst.Parameters(params=params), body,
                           leading_lines=updated.leading_lines)
    func = append_through_branch(func, guarded_appends(original, plan.appends))
    before, after = list(hoisted), []
    if plan.unrotate or advance or fwd:  # the range is read again: evaluate it once
        rng_name = cst.Name(f"_range_{plan.var}")
        before.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(rng_name)], rng)]))
        rng = rng_name
    before += fwd.before(rng) if fwd else []
    if advance:  # the loop's draws, made before it (rules/loop_draws.py)
        sites = cst.Call(cst.Name(J.DRAWS), [cst.Arg(rng_name), *[cst.Arg(s) for s in advance[1]]])
        before.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(f"_draws_{plan.var}"))], sites)]))
    for node in plan.unrotate:
        targets, values = node.targets[0].target, node.value
        paren = lambda t: cst.Tuple([cst.Element(cst.Name(e.value.value)) for e in t.elements])  # noqa: E731
        fix = cst.Assign([cst.AssignTarget(paren(targets).with_changes(lpar=[], rpar=[]))],
                         J.call(J.ROTATED, rng_name, paren(targets), paren(values)))
        after.append(ctx.mark_line(original, cst.SimpleStatementLine([fix])))
    args = [cst.Arg(rng), cst.Arg(cst.Name(name))]
    if carried:
        names = [unbound.init_expr(ctx, original, c, J.call(J.LOAD, cst.Name(c)) if c in plan.fresh
                                   and c in plan.defined_before else cst.Name(c if c in plan.defined_before else J.UNSET))
                 for c in carried]
        init = names[0] if len(carried) == 1 else cst.Tuple([cst.Element(n) for n in names])
        args.append(cst.Arg(init))
    if plan.python:  # the analysis keeps this loop a Python loop: npr_for says so when traced
        args.append(_keyword("python", cst.SimpleString(repr(plan.python))))
    if plan.appends:  # ... unless it stacks these lists' appends (rt/appends.py)
        args += [_keyword(k, v) for k, v in appends_arguments(ctx.f.node, original, plan.appends)]
    flags = [k for k, c in enumerate(carried) if BREAK_FLAG.fullmatch(c)]
    if flags:  # a loop run in Python stops at the break (frontend/jumps.py)
        args.append(_keyword("stop", cst.Integer(str(flags[0]))))
    if plan.unroll:
        args.append(_keyword("unroll", cst.Name("True")))
    args += sole_keywords(plan, carried)
    _note(ctx, original, plan.var, fwd.note()) if fwd else None
    loop_call, lanes = (not advance and not fwd and _lanes_call(original, updated, plan, args, ctx, flags)) or (cst.Call(cst.Name(J.FOR), args), [])
    if loop_call.func.value == J.FOR and not advance and not (carried and (fwd or flags)):  # loops="pallas",
        loop_call, lanes = opt_in_call(original, updated, plan, loop_call, lanes, ctx, carried)  # sums=, folds
    stmt = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.parse_expression(", ".join(carried)))],
                                               loop_call) if carried else cst.Expr(loop_call)])
    return cst.FlattenSentinel([func, *lanes, *[ctx.mark_line(original, b) for b in before],
                                ctx.mark_line(original, stmt), *after])


def _lanes_call(original, updated, plan, args, ctx, flags):
    """(`npr_vfor(range, _loop_j, _lanes_j, *slots)`, [the `_lanes_j` function]) when the
    iterations are independent (rewrite/lanes.py), else None."""
    why = _kept_form(plan, flags) or ("" if len(args) == 2 else "a loop with arguments npr_vfor does not take")
    lp = lane_plan(original, plan.var, ctx.f) if not why else why
    tri = tri_lanes(original, updated.body.body, plan.var, ctx.f) if isinstance(lp, str) and not why else None
    lp, tri = (tri, None) if isinstance(tri, str) else (tri[0], tri) if tri else (lp, None)  # (tri_mirrors.py)
    stmts = tri[1] if tri else updated.body.body[:len(updated.body.body) - len(lp.mirrors)] if isinstance(lp, LanePlan) else ()
    if isinstance(lp, LanePlan) and lp.mirrors and len(updated.body.body) != len(original.body.body):
        lp = "a body whose statements the rewrite split"  # (the copies are the last statements of both)
    made = lanes_function(lp, plan.var, stmts, f"_lanes_{plan.var}") if isinstance(lp, LanePlan) else None
    if made is None:
        _note(ctx, original, plan.var, appends_note(plan) or f"{'a Python loop' if plan.python else 'a lax loop'}: "
              + (lp if isinstance(lp, str) else "an access to a written array in a form the lanes do not know"))
        return None
    _note(ctx, original, plan.var, f"vectorised: npr_vfor (the iterations are independent{tri[3] if tri else ''})")
    func, slots = made
    extra = [cst.Arg(func.name), *[cst.Arg(s) for s in slots]]
    offsets = range_offsets(original.iter, ctx.f.for_names)
    if offsets is not None:
        extra.append(_keyword("offsets", offsets))
    if lp.mirrors:  # R[j, a] = R[a, j] ends the body: npr_vfor copies those rows into columns
        extra.append(_keyword("mirror", cst.Tuple([cst.Element(cst.Integer(str(k)), comma=cst.Comma()) for k in lp.mirrors])))
    if tri:  # each lane's row part copied into its column part after the lanes
        extra.append(_keyword("tri", tri[2]))
    if lp.nonneg:  # reads beside the slots that no iteration writes while these are >= 0
        extra.append(_keyword("nonneg", cst.Tuple([cst.Element(cst.Name(n), comma=cst.Comma()) for n in lp.nonneg])))
    return cst.Call(cst.Name(J.VFOR), [*args, *extra]), [func]


def _kept_form(plan, flags) -> str:
    """Why a loop's form keeps it a loop before its body is read ("" when none does)."""
    if plan.python:
        return plan.python
    if plan.kind != "range":
        return f"a loop over {'a sequence' if plan.kind in ('iter', 'zip', 'enumerate') else plan.kind}, not `range`"
    reasons = ((plan.carried, f"it carries {', '.join(plan.carried)} from one iteration to the next"),
               (plan.rotations or plan.unrotate, "it rotates written arrays"), (plan.unroll, "`# np2ref: unroll`"),
               (flags, "a `break`"), (plan.rows or plan.unpack, "it binds rows or unpacks items"))
    return next((why for cond, why in reasons if cond), "")


def _target_text(target) -> str:
    return cst.Module([]).code_for_node(target)


@emits(cst.While)
def emit_while_loop(original: cst.While, updated: cst.While, ctx):
    if original not in ctx.m.loops:
        _note(ctx, original, "", "a Python loop (its NPR note says why)")
        return updated
    plan = ctx.m.loops[original]
    _note(ctx, original, "", history_note(plan) if plan.appends else "a lax while loop (its trip count is known only as it runs)")
    n = ctx.next_count()
    carried = list(plan.carried)
    params = [cst.Param(cst.Name(c)) for c in carried]
    outs = [f"npr_trip_value({c})" if c in plan.fresh else c for c in carried]  # a trip's own Ref, as its value
    ret = [cst.parse_statement(f"return {', '.join(outs)}")] if carried else []
    test = cst.FunctionDef(cst.Name(f"_test_{n}"), cst.Parameters(params=params),
                           cst.IndentedBlock(body=[cst.SimpleStatementLine(
                               [cst.Return(condition(updated.test))])]),
                           leading_lines=updated.leading_lines)
    body = cst.FunctionDef(cst.Name(f"_body_{n}"), cst.Parameters(params=params),
                           cst.IndentedBlock(body=[*updated.body.body, *ret]))
    body = append_through_branch(body, plan.appends)  # npr_append: the histories' buffers
    call = cst.Call(cst.Name(J.WHILE), [cst.Arg(cst.Name(f"_test_{n}")), cst.Arg(cst.Name(f"_body_{n}")),
                                        *[cst.Arg(_while_init(ctx, original, plan, c)) for c in carried],
                                        *([_keyword("appends", _names_tuple(plan.appends))] if plan.appends else []),
                                        *sole_keywords(plan, carried)])
    if carried:
        stmt = cst.Assign([cst.AssignTarget(cst.parse_expression(", ".join(carried)))], call)
    else:
        stmt = cst.Expr(call)
    return cst.FlattenSentinel([test, body, ctx.mark_line(original, cst.SimpleStatementLine([stmt]))])


def _while_init(ctx, original: cst.While, plan: LoopPlan, c: str):
    """The value a `while` loop's carried name starts from (a fresh one's: its Ref loaded)."""
    if c not in plan.defined_before:
        return unbound.init_expr(ctx, original, c, cst.Name(J.UNSET))
    return unbound.init_expr(ctx, original, c, J.call(J.LOAD, cst.Name(c)) if c in plan.fresh else cst.Name(c))


BREAK_FLAG = re.compile(r"_break_\d+")  # the flag frontend/jumps.py makes of a `break`


def _loop_range(plan, it, local_names=frozenset()):
    """The npr_range call and the `row = seq[var]` bindings for each loop form."""
    var = cst.Name(plan.var)
    if plan.kind == "iter":
        return J.call(J.ITEMS, it), [], []
    if plan.kind == "ndindex":
        return cst.Call(cst.Name(J.NDINDEX), plain(it.args)), [], []  # `np.ndindex(*a.shape)` keeps its star
    if plan.kind == "range":
        return cst.Call(cst.Name(J.RANGE), plain(it.args)), [], []
    if plan.kind == "reversed":  # reversed(range(a, b)) is range(b - 1, a - 1, -1)
        args = [a.value for a in it.args[0].value.args]
        start, stop = (cst.Integer("0"), args[0]) if len(args) == 1 else (args[0], args[1])
        minus_one = lambda e: cst.BinaryOperation(parens(e), cst.Subtract(), cst.Integer("1"))  # noqa: E731
        return J.call(J.RANGE, minus_one(stop), minus_one(start), cst.parse_expression("-1")), [], []
    seqs, hoisted, hoisted_at = [], [], set()
    for j, a in enumerate(it.args):
        s = a.value
        if reversed_range(s):
            s = _loop_range(dataclasses.replace(plan, kind="reversed"), s)[0].with_changes(func=cst.Name("range"))
        if not isinstance(s, (cst.Name, cst.Attribute, cst.Subscript)) and not plain_range(s):
            # Python evaluates zip's and enumerate's arguments once, before the loop (`a.copy()`,
            # `a * 2`): so does the converted loop, not once per iteration
            name = cst.Name(f"_seq_{plan.var.strip('_')}{j}")
            hoisted.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(name)], s)]))
            hoisted_at.add(j)
            s = name
        seqs.append(s)
    lengths = [J.call("len", s) for s in seqs]
    bound = lengths[0] if len(lengths) == 1 else J.call("min", *lengths)
    # `range(n)[k]` needs a concrete k, and a hoisted value may be a range; a module's NumPy
    # array (`zip(range(9), CX)`) cannot be indexed with a traced k either: npr_item
    rows = [(r, J.call(J.ITEM, s, var) if isinstance(s, cst.Call) or j in hoisted_at
             or not (isinstance(s, cst.Name) and s.value in local_names) else
             cst.Subscript(s, [cst.SubscriptElement(cst.Index(var))])) for j, (r, s) in enumerate(zip(plan.rows, seqs))]
    return J.call(J.RANGE, bound), rows, hoisted
