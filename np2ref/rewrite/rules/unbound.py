"""Names a lowered branch or loop may leave unbound (Python's UnboundLocalError), after planning.

    if x[0] > 0:          # npr_if: lax.cond when traced
        y = x * 2
    return y + 1          # NumPy: UnboundLocalError when x[0] <= 0

A forward definite-assignment analysis over the function (each `if`/`for`/`while` may take
either path or run zero times; a loop is iterated to its fixed point) gives each name, at each
point, whether it may be unbound, whether it may be bound, and the lowered branches and loops
(`npr_if`, `npr_for`, `npr_while`) that carried it while it may have been unbound (`via`).
Python's own `if`s and loops leave a name unbound as Python does (the read raises by itself). A
read of a name that may be unbound with a non-empty `via` is emitted `npr_defined(y, "y")`, and
each construct in `via` starts the name as `npr_unbound` (rt/unbound.py): a flag then travels
beside the value through those constructs only. A name bound on every path before each read, or
never read after, costs nothing. Refused (NPR129): such a read that is a captured variable passed
to a lifted nested function (Python raises NameError there, only if the helper reads it), or of
a name that holds an array that is written.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits
from ..syntax import target_names
from . import stores
from .control import uses
from ...analysis.nodes import run_visitor

BOUND, MAYBE, UNBOUND = "bound", "maybe", "unbound"


@dataclasses.dataclass(frozen=True)
class _S:
    unbound: bool      # may be unbound here
    bound: bool        # may be bound here
    via: frozenset = frozenset()  # lowered constructs that carried it while it may have been unbound


_BOUND = _S(False, True)


def _merge(a: dict | None, b: dict | None) -> dict | None:
    if a is None:
        return b
    if b is None:
        return a
    out = {}
    for k in a.keys() | b.keys():
        x, y = a.get(k, _BOUND), b.get(k, _BOUND)
        out[k] = _S(x.unbound or y.unbound, x.bound or y.bound, x.via | y.via)
    return out


class _Comprehended(cst.CSTVisitor):
    """ids of the Name nodes a comprehension binds or reads as its own variable."""

    def __init__(self):
        self.found: set[int] = set()

    def _comp(self, node) -> None:
        names: set[str] = set()
        for f in _fors(node.for_in):
            target_names(f.target, names)
        for n in _nodes(node, cst.Name):
            if n.value in names:
                self.found.add(id(n))

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp


def _fors(comp_for):
    while comp_for is not None:
        yield comp_for
        comp_for = comp_for.inner_for_in


def _nodes(node, kind) -> list:
    """The nodes of type `kind` in node's tree, in order."""
    found = []

    class V(cst.CSTVisitor):
        def on_visit(self, n) -> bool:
            if isinstance(n, kind):
                found.append(n)
            return True
    run_visitor(node, V())
    return found


class Analysis:
    def __init__(self, func: cst.CSTNode, facts, marks):
        self.f, self.m = facts, marks
        self.store_names = facts.store_names
        comp = _Comprehended()
        run_visitor(func, comp)
        self.comp = comp.found
        self.reads: set = set()              # Name nodes read as npr_defined
        self.augs: set = set()               # AugAssign nodes whose target is such a read
        self.tracked: dict = {}              # construct -> {name: its state at the construct}
        self.entry: dict = {}                # (construct, name) -> state on entering it
        self.loops: list = []                # (break states, continue states) of Python loops
        self.read_unbound: set = set()       # names read somewhere they may be unbound

    # -- events ----------------------------------------------------------------------------------
    def _read(self, state, name, node) -> None:
        s = state.get(name)
        if s is not None and s.unbound:
            self.read_unbound.add(name)
        if s is not None and s.unbound and s.via:
            self.reads.add(node)
            for c in s.via:
                self.tracked.setdefault(c, set()).add(name)

    def _expr(self, node, state) -> dict | None:
        """The reads and binds of a simple statement or expression, in order."""
        if state is None:
            return None
        u = uses(node, self.store_names)
        for name, is_store, n in u.items:
            if id(n) in self.comp:
                continue
            if is_store:
                if name in state:
                    state = {**state, name: _BOUND}
            else:
                self._read(state, name, n)
                if isinstance(node, cst.AugAssign) and n is node.target and n in self.reads:
                    self.augs.add(node)
        return state

    # -- statements ------------------------------------------------------------------------------
    def block(self, stmts, state):
        for s in stmts:
            state = self.stmt(s, state)
        return state

    def suite(self, suite, state):
        if suite is None:
            return state
        if isinstance(suite, cst.SimpleStatementSuite):
            return self.block(suite.body, state)
        return self.block(suite.body, state)

    def stmt(self, s, state):
        if state is None:
            return None
        if isinstance(s, cst.SimpleStatementLine):
            return self.block(s.body, state)
        if isinstance(s, (cst.Return, cst.Raise)):
            self._expr(s, state)
            return None
        if isinstance(s, (cst.Break, cst.Continue)):
            if self.loops:
                self.loops[-1][0 if isinstance(s, cst.Break) else 1].append(state)
            return None
        if isinstance(s, cst.If):
            return self._if(s, state)
        if isinstance(s, cst.For):
            return self._for(s, state)
        if isinstance(s, cst.While):
            return self._while(s, state)
        if isinstance(s, cst.BaseCompoundStatement):  # anything else: each name it binds may be bound
            after = self._expr(s, dict(state))
            return _merge(state, after)
        return self._expr(s, state)

    def _carry(self, node, carried, state, entering=True):
        """The state entering a lowered construct's functions: a carried name that may be
        unbound is the construct's sentinel (`via` gets the construct)."""
        out = dict(state)
        for c in carried:
            s = state.get(c)
            if entering:
                self.entry[(node, c)] = s
            if s is not None and s.unbound:
                out[c] = dataclasses.replace(s, via=s.via | {node})
        return out

    def _if(self, s: cst.If, state):
        state = self._expr(s.test, state)
        plan = self.m.branches.get(s)
        inner = self._carry(s, plan.carried, state) if plan is not None else state
        then = self.suite(s.body, dict(inner))
        if isinstance(s.orelse, cst.If):
            other = self.stmt(s.orelse, dict(inner))
        elif isinstance(s.orelse, cst.Else):
            other = self.suite(s.orelse.body, dict(inner))
        else:
            other = inner
        return _merge(then, other)

    def _loop(self, node, state, head_reads, bind_target):
        """A loop: the state at its head is the entry's merged with each iteration's end (and
        `continue`s), to a fixed point; it leaves from the head (or at a `break`)."""
        plan = self.m.loops.get(node)
        entry = self._carry(node, plan.carried, state) if plan is not None else state
        head = entry
        for _ in range(50):
            self.loops.append(([], []))
            at = head_reads(dict(head))
            end = self.suite(node.body, bind_target(at))
            breaks, continues = self.loops.pop()
            for c in continues:
                end = _merge(end, c)
            if plan is not None and end is not None:
                end = self._carry(node, plan.carried, end, entering=False)
            new = _merge(head, end)
            if new == head:
                break
            head = new
        out = head_reads(dict(head))
        for b in breaks:
            out = _merge(out, b)
        if getattr(node, "orelse", None) is not None:
            out = self.suite(node.orelse.body, out)
        return out

    def _for(self, s: cst.For, state):
        state = self._expr(s.iter, state)
        names: set[str] = set()
        target_names(s.target, names)

        def bind(st):
            if st is None:
                return None
            return {**st, **{n: _BOUND for n in names if n in st}}
        return self._loop(s, state, lambda st: st, bind)

    def _while(self, s: cst.While, state):
        return self._loop(s, state, lambda st: self._expr(s.test, st), lambda st: st)


def analyse(func: cst.FunctionDef, facts, marks) -> Analysis:
    """The reads that may see a name unbound after a lowered construct, and those constructs."""
    a = Analysis(func, facts, marks)
    local = {n for n, s, _ in uses(func.body, facts.store_names).items if s}
    start = {n: _S(True, False) for n in local if n not in facts.params}
    a.block(func.body.body, start)
    return a


class _NoPlans:
    branches: dict = {}
    loops: dict = {}


def read_before_bound(node: cst.CSTNode, body: list, facts, test=None) -> set[str]:
    """The names a loop body or branch (`body`: its statements; `test`: a `while` test or an
    `if` test, read first) reads where it may not have bound them yet on this run of it: each
    is the value from before it (or an earlier iteration), so the construct must carry it. A
    name bound in one branch of an inner `if` and read after it is one (source order would say
    it is bound first)."""
    a = Analysis(node, facts, _NoPlans)
    stored = {n for n, s, _ in uses(node, facts.store_names).items if s}
    state = {n: _S(True, False) for n in stored}
    if test is not None:
        state = a._expr(test, state)
    a.block(body, state)
    return a.read_unbound


def init_for(ctx, node, name: str):
    """How a lowered construct starts a carried name that a read may see unbound: None when it
    is not tracked there (the rules' own init), else BOUND (`y`), MAYBE (`npr_bound(lambda: y,
    True)`) or UNBOUND (`npr_unbound`)."""
    names = ctx.m.unbound_inits.get(node)
    if names is None or name not in names:
        return None
    return names[name]


def plan_unbound(ctx) -> None:
    """Run the analysis on the planned function (rewrite/marks.py's MarkPass `ctx`) and record
    its reads and inits in the plan, or refuse (NPR129) a read it cannot check."""
    if not ctx.m.branches and not ctx.m.loops:
        return
    a = analyse(ctx.f.node, ctx.f, ctx.m)
    helper = f"{ctx.f.name}__"
    passed = {id(arg.value) for call in _nodes(ctx.f.node, cst.Call)
              if isinstance(call.func, cst.Name) and call.func.value.startswith(helper)
              for arg in call.args}
    # a written array a loop carries out as its value (LoopPlan.fresh, never written outside the
    # loop) is read as that value after it: npr_defined checks it as it does any value
    fresh = {n for plan in ctx.m.loops.values() for n in getattr(plan, "fresh", ())}
    bad = [n for n in a.reads if id(n) in passed or n.value in ctx.f.ref_names and n.value not in fresh]
    for n in sorted(bad, key=lambda n: (ctx.span(n).line, ctx.span(n).col)):
        why = ("is passed to a nested function" if id(n) in passed else "holds an array that is written")
        ctx.sink.report("NPR129", f"`{n.value}` may be unbound here (a branch or loop on array data "
                        f"may not bind it) and {why}: np2ref cannot check this read",
                        ctx.span(n), hint=f"bind `{n.value}` on every path before it (a default "
                        "before the `if` or loop)")
    if bad:
        return
    ctx.m.defined_reads.update(a.reads)
    ctx.m.defined_augs.update(a.augs)
    for node, names in a.tracked.items():
        inits = {}
        for name in names:
            s = a.entry.get((node, name))
            inits[name] = BOUND if s is None or not s.unbound else MAYBE if s.bound else UNBOUND
        ctx.m.unbound_inits[node] = inits


def init_expr(ctx, node, name: str, default: cst.BaseExpression) -> cst.BaseExpression:
    """The initial value a lowered construct gives carried `name`: `default` (the rule's own)
    unless a read may see it unbound through this construct (see init_for)."""
    how = init_for(ctx, node, name)
    if how is None or how == BOUND:
        return default
    if how == MAYBE:
        return J.call(J.BOUND, cst.Lambda(cst.Parameters(), cst.Name(name)), cst.Name("True"))
    return cst.Name(J.UNBOUND)


def _defined(name: cst.Name) -> cst.Call:
    return J.call(J.DEFINED, name, cst.SimpleString(repr(name.value)))


@emits(cst.Name, order=5)
def emit_defined_read(original: cst.Name, updated: cst.Name, ctx):
    if original not in ctx.m.defined_reads or original in ctx.f.store_names:
        return None
    return _defined(updated)


@emits(cst.SimpleStatementLine, order=40)
def emit_defined_aug(original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine, ctx):
    """`y += v` where y may be unbound: `y = npr_defined(y, "y")` first, on the same line (Python
    reads y before it evaluates v)."""
    if not any(s in ctx.m.defined_augs for s in original.body) or len(original.body) != len(updated.body):
        return None
    body = []
    for s, u in zip(original.body, updated.body):
        if s in ctx.m.defined_augs:
            name = s.target.value
            body.append(cst.Assign([cst.AssignTarget(cst.Name(name))], _defined(cst.Name(name))))
        body.append(u)
    return stores.emit_line(original, updated.with_changes(body=body), ctx)
