"""What a call of a module function may not do, checked where it is planned (rules/calls.py):
pass an argument that may share the buffer of one the callee writes (checked apart at trace time
through `npr_apart` where the argument is a view of a ref, else NPR201), or leave out a written
parameter whose default is an array or a container it changes (NPR202: one object, made when
the callee is defined, that every such call writes into, as module-level state).
"""

from __future__ import annotations

import libcst as cst
import numpy as np

from ...analysis import effects as fx
from ...analysis.nodes import number_literal
from ...diagnostics import Note
from ..registry import plans
from ..syntax import walk
from .views import mark_ref


def check_shared_buffers(ctx, node, callee, facts, pairs) -> None:
    """An argument the callee reads may share the buffer of one it writes (flow-insensitive
    roots cannot tell a buffer swap from the same buffer): load it through `npr_apart`,
    which checks at trace time that the two really are apart, and refuses otherwise."""
    index = {id(a.value): i for i, a in enumerate(node.args)}
    written = [(a, p) for a, p in pairs if p in facts.ref_names]
    for b, q in pairs:
        if q is None or q in facts.ref_names or q in read_first(facts, ctx.all):
            continue
        rb = ctx.roots_of(b)
        clash = [index[id(a)] for a, _ in written if ctx.roots_of(a) & rb]
        if not clash:
            continue
        if mark_ref(ctx, b):
            ctx.m.apart.setdefault(node, {})[index[id(b)]] = clash
        else:
            ctx.sink.report(
                "NPR201", f"`{q}` of {callee}() may share the buffer of an argument it writes",
                ctx.span(node), notes=[Note(f"{callee}() writes its parameter(s) "
                                            f"{', '.join(sorted(facts.mutated_params))}",
                                            ctx.span(facts.node))],
                hint=f"pass a copy for `{q}`")


def read_first(facts, functions) -> frozenset[str]:
    """The parameters `facts`' function only reads, and reads no later than the statement that
    first touches a parameter it writes (`laplacian(u, out)`: `out[1:-1] = u[2:] - ...`, then
    stores into `out` alone). Passing the same buffer for both (`laplacian(w, w)`) then reads
    what NumPy reads: a value loaded at the call is the buffer before any write, and within one
    simple statement NumPy evaluates the right-hand side (a ufunc its inputs) before it stores.
    Not where that statement is compound (a loop reads after its own writes), calls a module
    function, or a lambda or nested function mentions the parameter. Made once per function."""
    if "read_first" not in facts.derived:
        facts.derived["read_first"] = _read_first(facts, functions)
    return facts.derived["read_first"]


def _read_first(facts, functions) -> frozenset[str]:
    def names_of(param):
        return {n for n, roots in facts.roots.items() if f"param {param}" in roots} | {param}

    def mentions(stmt, names):
        return any(isinstance(n, cst.Name) and n.value in names for n in walk(stmt))

    body = list(facts.node.body.body)
    written = set().union(*(names_of(p) for p in facts.mutated_params)) if facts.mutated_params else set()
    first = next((i for i, st in enumerate(body) if mentions(st, written)), len(body))
    found = set()
    for q in facts.params:
        if q in facts.ref_names or q in facts.mutated_params:
            continue
        names = names_of(q)
        if any(isinstance(n, (cst.Lambda, cst.FunctionDef)) and mentions(n, names) for n in walk(facts.node.body)):
            continue
        last = max((i for i, st in enumerate(body) if mentions(st, names)), default=-1)
        if last < first or last == first and _simple(body[first], functions):
            found.add(q)
    return frozenset(found)


def _simple(stmt, functions) -> bool:
    """One simple statement (no loop, branch or `with`) calling no module function."""
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and not any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in functions for n in walk(stmt))


def check_written_defaults(ctx, node, callee, facts, given) -> None:
    """A call that leaves out a parameter the callee writes, whose default is not a literal
    (`buf=np.zeros(3)`): NumPy's callee writes into that one default array, which every such call
    shares, as module-level state (it accumulates from call to call); traced, it would be a
    fresh constant each time (NPR202)."""
    if None in given:  # unpacked arguments (NPR208's when the callee writes)
        return
    params = facts.node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        name = param.name.value
        if param.default is None or name in given or _immutable_default(ctx, param.default) or not (
                name in facts.mutated_params or _container(param.default) and _changes_container(facts.node, name)):
            continue
        ctx.sink.report(
            "NPR202", f"{callee}() writes its parameter `{name}`, left out here: its default "
            f"`{cst.Module([]).code_for_node(param.default)}` is one object shared by every call that "
            "leaves it out, module-level state np2ref does not translate writes into",
            ctx.span(node), notes=[Note(f"`{name}` defaults to one object made when {callee}() is defined",
                                        ctx.span(param))],
            hint=f"pass `{name}` in this call, or default it to None and make it in {callee}()")


# list, dict and set methods that change the container in place
_CHANGING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
                               "update", "setdefault", "popitem", "add", "discard", "__setitem__"})


def _container(expr) -> bool:
    """`[]`, `{}`, `set()`, `list()`...: a mutable container made once, at the definition."""
    return isinstance(expr, (cst.List, cst.Dict, cst.Set)) or isinstance(expr, cst.Call) and isinstance(
        expr.func, cst.Name) and expr.func.value in ("list", "dict", "set")


def _changes_container(func: cst.FunctionDef, name: str) -> bool:
    """Whether `func` changes the container its parameter `name` holds (`hist.append(v)`,
    `cache[k] = v`, `seen |= {v}`): a list default (`hist=[]`) then grows from call to call."""
    for n in walk(func.body):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name) \
                and n.func.value.value == name and n.func.attr.value in _CHANGING_METHODS:
            return True
        targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else \
            [n.target] if isinstance(n, cst.AugAssign) else []
        for t in targets:
            base = t.value if isinstance(t, cst.Subscript) else t if isinstance(n, cst.AugAssign) else None
            if isinstance(base, cst.Name) and base.value == name:
                return True
    return False


def _immutable_default(ctx, expr) -> bool:
    """None, a bool, a number, a string, or a scalar made by a call (`np.float64(0.0)`, `float(1)`):
    a default no write can change (`total += x` rebinds it)."""
    if isinstance(expr, cst.Call):
        qual = ctx.numpy_name(expr.func)
        return qual is not None and isinstance(getattr(np, qual[6:], None), type) and issubclass(
            getattr(np, qual[6:]), np.generic) or isinstance(expr.func, cst.Name) and expr.func.value in (
            "float", "int", "complex", "bool") and expr.func.value not in ctx.locals
    return isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)) or number_literal(expr) \
        or isinstance(expr, cst.Name) and expr.value in ("None", "True", "False")


@plans(cst.BinaryOperation, order=1)
def plan_read_after_call(node: cst.BinaryOperation, ctx) -> None:
    """`u + dt * rhs(u)` with rhs writing u in place: NumPy's `+` reads u's contents when it runs,
    after the call wrote them, where the translation's load of u (`u[...]`) is evaluated first,
    before the call. Refused (NPR201) rather than read stale (never claims the node)."""
    written = {}
    for call in walk(node.right):
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in ctx.all \
                and call.func.value not in ctx.locals:
            facts = ctx.all[call.func.value]
            for arg, pname in fx.call_params(call.args, facts.params):
                if pname in facts.mutated_params:
                    for root in ctx.roots_of(arg.value):
                        written.setdefault(root, call.func.value)
    if not written:
        return
    # only an operand that IS the array (or a view of it: `u`, `u[1:]`, `u.T`) is read when the
    # operator runs; `f(u) + g(u)` or `u * 2 + g(u)` computed their left value before the call
    name = node.left
    while isinstance(name, (cst.Subscript, cst.Attribute)):
        name = name.value
    if isinstance(name, cst.Name) and ctx.is_ref(name.value) and ctx.roots_of(name) & written.keys():
        callee = written[sorted(ctx.roots_of(name) & written.keys())[0]]
        ctx.sink.report("NPR201", f"`{name.value}` is read by this operation after {callee}() writes it in "
                        f"place: NumPy's operator reads `{name.value}` when it runs, after the call, where the "
                        "translation would read it before the call", ctx.span(node),
                        hint=f"call {callee}() on a line of its own first (`d = {callee}(...)`), then use `d`")
