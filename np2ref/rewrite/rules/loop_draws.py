"""LoopDrawsInAdvance: a `for ... in range(...)` loop's random draws made in one host call before
the loop (rt/draws.py npr_draws) instead of one host callback per draw.

    for i in range(n):                                   _range_i = npr_range(n)
        prop = x + rng.normal(0.0, 0.1, size=x.shape)    _draws_i = npr_draws(_range_i, npr_site(rng, 'normal', 0.0, 0.1, size=x.shape),
        u = rng.random()                          ->                          npr_site(rng, 'random'))
        ...                                              def _loop_i(i, carry):
                                                             prop = x[...] + _draws_i.take(0, i)
                                                             u = _draws_i.take(1, i)

Exact when the draws the loop makes are known before it starts, in number and in kind: every
draw of the body is in a statement of the body's top level (none under an `if`, an inner loop, a
conditional expression, `and`/`or`, a comprehension or a lambda), one draw to a statement (their
order is then the statements' order), its arguments the same in every iteration (literals,
names the body does not bind and that are no written array, `a.shape`, arithmetic of these),
the loop variable not rebound, no `break`/`continue` flag (a `raise` is a run-time check, as an
assert: where one fails in the loop, the generators are put back where NumPy's loop left them,
rt/draws.py _NprReplay), and nothing else in the body can touch
a generator (a seed, a generator made, a function passed in, an object's method, a module
function that draws). npr_draws then makes, on the host, the calls NumPy's loop makes in NumPy's
order, so the stream and the generators' states afterwards are NumPy's. Anything else keeps one
host callback per draw (npr_random), exactly as before.
"""

from __future__ import annotations

import builtins
import re

import libcst as cst

from ...analysis.module_state import names_bound
from ...analysis.nodes import walk
from ...analysis.numpy_table import RANDOM_DRAWS
from ...emit import jaxnames as J

SHAPE_ATTRS = frozenset({"shape", "ndim", "size", "dtype"})
PURE_BUILTINS = frozenset({"len", "int", "float", "abs", "min", "max", "round", "bool", "tuple", "range", "print",
                           "isinstance", "sum", "divmod", "pow", "complex", "enumerate", "zip", "reversed"})
BUILTIN_EXCEPTIONS = frozenset(name for name, obj in vars(builtins).items()
                                if isinstance(obj, type) and issubclass(obj, BaseException))
# runtime helpers that reach the host's generators (or a callable np2ref cannot see into)
HOST_TOUCHING = frozenset({J.CHECKED_CALL, J.GENERATOR, J.NAMESPACE_CALL})
EMITTED_MODULES = frozenset({J.JNP, "jax", "lax", "np"})  # what the emitter's own calls start at
CONDITIONAL = (cst.Lambda, cst.IfExp, cst.BooleanOperation, cst.ListComp, cst.SetComp, cst.DictComp,
               cst.GeneratorExp, cst.FunctionDef)


def draws_in_advance(original: cst.For, updated_body: list, plan, ctx):
    """(the body with each draw read from `_draws_<var>`, the npr_site calls in execution order),
    or None where the loop keeps a host callback per draw (see the module docstring)."""
    if plan.kind != "range" or plan.python or any(c.startswith("_brk") or c.startswith("_cont") for c in plan.carried):
        return None
    sites = [node for node in walk(original.body) if is_draw(node, ctx)]
    if not sites or not _invariant_calls(original, sites, plan.var, ctx):
        return None
    calls = _top_level_draws(updated_body)
    if calls is None or len(calls) != len(sites) or _touches_generators(updated_body, ctx):
        return None
    draws = cst.Name(f"_draws_{plan.var}")
    replace = {id(c): cst.Call(cst.Attribute(draws, cst.Name("take")),
                               [cst.Arg(cst.Integer(str(k))), cst.Arg(cst.Name(plan.var))]) for k, c in enumerate(calls)}
    body = [s.visit(_Replace(replace)) for s in updated_body]
    return body, [c.with_changes(func=cst.Name(J.SITE)) for c in calls]


def is_draw(node, ctx) -> bool:
    """A generator draw np2ref made a host call (npr_random): `rng.normal(...)`, `np.random.rand()`."""
    return isinstance(node, cst.Call) and ctx.m.special_calls.get(node, ("", None))[0] == "random"


def _top_level_draws(body: list):
    """The npr_random calls of the emitted body in execution order, one per top-level statement
    and none conditional; None otherwise."""
    found = []
    for stmt in body:
        calls = [n for n in walk(stmt) if _is_host_draw(n)]
        if not calls:
            continue
        if len(calls) > 1 or not isinstance(stmt, cst.SimpleStatementLine) or any(
                isinstance(n, CONDITIONAL) and any(c is m for m in walk(n) for c in calls) for n in walk(stmt)):
            return None
        found.append(calls[0])
    return found


def _is_host_draw(node) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == J.RANDOM


def _invariant_calls(original: cst.For, sites, var: str, ctx) -> bool:
    """Whether every draw's generator and arguments are the same in every iteration, the loop
    variable is not rebound and the body has no jump out of the loop but a `raise` (a run-time
    check, as an assert: the draws NumPy made before it are put back, rt/draws.py _NprReplay)."""
    bound = names_bound(original.body) | {var}
    if any(isinstance(n, (cst.Return, cst.Break, cst.Continue, cst.Yield, cst.Global, cst.Nonlocal))
           for n in walk(original.body)):
        return False
    for call in sites:
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in RANDOM_DRAWS:
            return False  # `from numpy.random import rand; rand()`: through npr_call
        if not _invariant(func.value, bound, ctx) or any(a.star or not _invariant(a.value, bound, ctx) for a in call.args):
            return False
    return True


def _invariant(e, bound, ctx) -> bool:
    """An expression of literals, names the body does not bind that hold no written array, the
    shape of an array, a module's attribute, and arithmetic of these."""
    if isinstance(e, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(e, cst.Name):
        return e.value in ("True", "False", "None") or e.value not in bound and not ctx.f.ref_names & {e.value}
    if isinstance(e, cst.Attribute):
        if e.attr.value in SHAPE_ATTRS and isinstance(e.value, cst.Name):
            return e.value.value not in bound
        return ctx.imports.qualify(e, frozenset(ctx.f.roots)) is not None
    if isinstance(e, (cst.Tuple, cst.List)):
        # (a starred item is a StarredElement, not an Element: refused by the test)
        return all(_invariant(el.value, bound, ctx) for el in e.elements) \
            if all(isinstance(el, cst.Element) for el in e.elements) else False
    if isinstance(e, cst.UnaryOperation):
        return _invariant(e.expression, bound, ctx)
    if isinstance(e, cst.BinaryOperation):
        return _invariant(e.left, bound, ctx) and _invariant(e.right, bound, ctx)
    if isinstance(e, cst.Subscript):
        return _invariant(e.value, bound, ctx) and all(
            isinstance(s.slice, cst.Index) and _invariant(s.slice.value, bound, ctx) for s in e.slice)
    if isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value in ("len", "int", "float"):
        return e.func.value not in bound and all(not a.star and _invariant(a.value, bound, ctx) for a in e.args)
    return False


def _touches_generators(body: list, ctx) -> bool:
    """Whether anything in the emitted body but its draws could reach a generator: a seed or a
    stateful method (npr_random of them), a generator made, a callable passed in, a call np2ref
    cannot see into, a module function that draws."""
    local = frozenset(ctx.f.roots) | frozenset(ctx.f.params)
    for stmt in body:
        for n in walk(stmt):
            if not isinstance(n, cst.Call):
                continue
            f = n.func
            if isinstance(f, cst.Name):
                if f.value in HOST_TOUCHING or f.value in ctx.facts and may_draw(f.value, ctx.facts, ctx.imports):
                    return True
                if _is_host_draw(n) and not (len(n.args) > 1 and isinstance(n.args[1].value, cst.SimpleString)
                                             and n.args[1].value.evaluated_value in RANDOM_DRAWS):
                    return True
                if not (f.value.startswith(("npr_", "_")) or f.value in PURE_BUILTINS or f.value in ctx.facts
                        or _builtin_exception(f.value, local, ctx)):
                    return True
            elif isinstance(f, cst.Attribute):
                root = _root(f)
                qual = ctx.imports.qualify(f, local)
                if qual is not None and qual.startswith("numpy.random") or qual is None and root not in local \
                        and root not in EMITTED_MODULES:
                    return True
    return False


def _builtin_exception(name: str, local, ctx) -> bool:
    """`ValueError(...)` of a `raise`: Python's exception type (no name of the function's, the
    module's functions' or an import's hides it), which makes no draw."""
    return name in BUILTIN_EXCEPTIONS and name not in local and name not in ctx.imports.aliases


def may_draw(name: str, facts, imports, seen=None) -> bool:
    """Whether module function `name` (or one it calls) may draw, seed or call something passed in."""
    seen = set() if seen is None else seen
    if name in seen:
        return False
    seen.add(name)
    func = facts[name]
    for n in walk(func.node.body):
        if not isinstance(n, cst.Call):
            continue
        f = n.func
        if isinstance(f, cst.Attribute) and (f.attr.value in RANDOM_DRAWS or f.attr.value == "seed"):
            return True
        qual = imports.qualify(f)
        if qual is not None and qual.startswith("numpy.random"):
            return True
        if isinstance(f, cst.Name) and (f.value in func.params or f.value in facts
                                        and may_draw(f.value, facts, imports, seen)):
            return True
    return False


def _root(e):
    while isinstance(e, (cst.Attribute, cst.Subscript, cst.Call)):
        e = e.func if isinstance(e, cst.Call) else e.value
    return e.value if isinstance(e, cst.Name) else None


class _Replace(cst.CSTTransformer):
    def __init__(self, replace):
        self.replace = replace

    def on_leave(self, original, updated):
        return self.replace.get(id(original), updated)


def note_host_calls(original: cst.For, body: list, ctx) -> None:
    """NPR039: the host calls each iteration of a compiled loop still makes (draws left one by
    one, functions passed in, prints), with their lines and the count per call."""
    names = {J.RANDOM: "draw", J.CHECKED_CALL: "call of a function passed in", J.PRINT: "print"}
    calls = [n for stmt in body for n in walk(stmt) if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)
             and n.func.value in names]
    if not calls:
        return
    found = _HostCalls(ctx)
    original.body.visit(found)
    lines = sorted({ctx.span(n).line for n, _ in found.calls})
    kinds = sorted({names[c.func.value] for c in calls})
    trips = cst.Module(body=[]).code_for_node(original.iter)
    n = len(calls)
    counted = f"{n} host call{'s' if n > 1 else ''} per iteration ({', '.join(kinds)}; line{'s' if len(lines) > 1 else ''} " \
        f"{', '.join(map(str, lines))})"
    if found.calls and all(under for _, under in found.calls):  # `if step % every == 0: print(...)`
        said = (f"this loop makes up to {counted}, each under an `if`: a round trip to the host on each "
                f"trip whose `if` holds (at most {n} x the trips of `{trips}` per call), which dominates its "
                "run time where most trips take it")
    else:
        said = (f"this loop makes {counted}: {n} x the trips of `{trips}` round trips to the host per call, "
                "which will dominate its run time")
    ctx.sink.report(
        "NPR039", said, ctx.span(original.target), severity="info",
        hint="draws made once per iteration, unconditionally, one to a statement, with arguments the "
        "loop does not change, are made before the loop in one host call; see `np2ref explain NPR039`")


class _HostCalls(cst.CSTVisitor):
    """The host calls of a loop body (draws, prints, functions passed in), each with whether an
    `if` (or a conditional expression) of the body guards it: made only on the trips it holds."""

    def __init__(self, ctx):
        self.ctx, self.depth, self.calls = ctx, 0, []

    def visit_If(self, node) -> None:
        self.depth += _users(node.test)

    def leave_If(self, node) -> None:
        self.depth -= _users(node.test)

    def visit_IfExp(self, node) -> None:
        self.depth += 1

    def leave_IfExp(self, node) -> None:
        self.depth -= 1

    def visit_Call(self, node) -> None:
        if is_draw(node, self.ctx) or _print_or_passed(node, self.ctx):
            self.calls.append((node, self.depth > 0))


def _users(test) -> bool:
    """Whether an `if` is the user's, not one frontend/jumps.py made for `break`/`continue`
    (`if not _skip_3:` around the rest of the body: every trip that goes on takes it)."""
    return any(not _JUMP_FLAG.match(n.value) for n in walk(test) if isinstance(n, cst.Name) and n.value != "not")


_JUMP_FLAG = re.compile(r"_(skip|break|returned)_\d+$")


def _print_or_passed(node, ctx) -> bool:
    if not isinstance(node, cst.Call):
        return False
    kind = ctx.m.special_calls.get(node, ("", None))[0]
    return kind == "checked_call" or isinstance(node.func, cst.Name) and node.func.value == "print"
