"""One pass over a function body (Collected): its bindings (target, value), the writes through
expressions (Write: stores, `op=`, ufunc.at, `out=`, in-place functions and methods, calls of
module functions that mutate a parameter), its returns, loops and calls. Independent of the
effects table, so the module's fixed point over effects never visits a tree twice; the storage
roots computed from it are aliases.py's."""

from __future__ import annotations

import dataclasses

import libcst as cst

from . import effects as fx
from .identity import param_of, returned_items
from .names import dotted
from .nodes import run_visitor


@dataclasses.dataclass
class Write:
    """A statement or call that writes through an expression."""

    target: cst.BaseExpression  # the array expression written through
    node: cst.CSTNode           # the statement or call, for diagnostics
    kind: str                   # "store", "augstore", "augname", "ufunc_at", "out", "method", "function", "call"


def call_writes(node: cst.Call, ctx: "_Context", calls: list | None = None, chosen=None) -> list[Write]:
    """The writes one call makes: `out=`, ufunc.at, in-place functions and methods, and the
    parameters of a module function that it mutates (read from the effects table), called by
    its name or through a local `chosen` holds (chosen_functions: each function it may be)."""
    writes: list[Write] = []
    func = node.func
    qual = ctx.imports.qualify_numpy(func, ctx.locals)
    args = [a for a in node.args if a.keyword is None and a.star == ""]
    takes_out = qual is not None or (isinstance(func, cst.Attribute) and ctx.imports.qualify(func, ctx.locals) is None)
    for a in node.args:
        if takes_out and a.keyword is not None and a.keyword.value == "out":
            writes.append(Write(a.value, node, "out"))
    if qual is not None:
        parts = qual.split(".")
        if len(parts) == 3 and parts[2] == "at" and args:
            writes.append(Write(args[0].value, node, "ufunc_at"))
        elif qual in fx.INPLACE_FUNCTIONS and args:
            writes.append(Write(args[fx.INPLACE_FUNCTIONS[qual]].value, node, "function"))
        return writes
    if isinstance(func, cst.Attribute) and func.attr.value in fx.INPLACE_METHODS | fx.REFUSED_INPLACE_METHODS:
        if dotted(func.value) is None or dotted(func.value).split(".")[0] in ctx.locals:
            writes.append(Write(func.value, node, "method"))
        return writes
    if isinstance(func, cst.Name) and func.value in ctx.module_functions and func.value not in ctx.locals:
        callees = (func.value,)
    elif isinstance(func, cst.Name) and chosen and func.value in chosen:
        callees = chosen[func.value]  # `flip = rev_b if whole else rev_a` ... `flip(t, i)`
    else:
        return writes
    for callee in callees:
        if calls is not None:
            calls.append((node, callee))
        eff = ctx.effects.get(callee, fx.Effects())
        for arg, pname in fx.call_params(node.args, eff.params):
            if pname in eff.mutated:
                writes.append(Write(arg.value, node, "call"))
    return writes


def chosen_functions(bindings, module_functions, local_names) -> dict[str, tuple[str, ...]]:
    """The locals every binding of which is a module function (`flip = rev_b if whole else
    rev_a`, `f = step`, `for f in (sq, cube)`), each with the functions it may hold: a call
    through one writes what any of them writes."""
    found: dict[str, set[str]] = {}
    unknown = set()

    def names(value) -> set[str] | None:
        if isinstance(value, cst.Name):
            ok = value.value in module_functions and value.value not in local_names
            return {value.value} if ok else None
        if isinstance(value, cst.IfExp):
            body, orelse = names(value.body), names(value.orelse)
            return body | orelse if body is not None and orelse is not None else None
        if isinstance(value, cst.Subscript) and isinstance(value.value, (cst.Tuple, cst.List)):  # a loop's item
            each = [names(e.value) for e in value.value.elements]
            return set().union(*each) if each and None not in each else None
        return None
    for target, value in bindings:
        if isinstance(target, cst.Name):
            got = names(value) if value is not None else None
            found.setdefault(target.value, set()).update(got or ())
            if got is None:
                unknown.add(target.value)
    return {n: tuple(sorted(v)) for n, v in found.items() if n not in unknown}


def _row(seq: cst.BaseExpression) -> cst.Subscript:
    return cst.Subscript(seq, [cst.SubscriptElement(cst.Index(cst.Integer("0")))])


class Collected:
    """What one pass over a function body records; independent of the effects table, so the
    module's fixed point over effects never re-visits the tree."""

    def __init__(self, func: cst.FunctionDef, numpy_names=frozenset({"np", "numpy"})):
        col = _Collector(func, numpy_names)
        run_visitor(func, col)
        self.bindings = col.bindings
        self.writes = col.writes
        self.returns = col.returns
        self.return_nodes = col.return_nodes
        self.returned = returned_items(func)
        self.returns_param = param_of(self.returned)
        self.call_assigns = col.call_assigns
        self.loop_assigns = col.loop_assigns
        self.array_uses = col.array_uses
        self.call_nodes = col.call_nodes
        self.aug_names = col.aug_names
        self.store_names = frozenset(t for t, _ in col.bindings)
        self.uses_numpy = col.uses_numpy
        self.for_names = frozenset(col.for_names)
        self.locals = frozenset(param_names(func) + star_names(func)) | frozenset(t.value for t, _ in col.bindings)


# numpy's names that hold Python floats (`type(np.inf) is float`)
NUMPY_CONSTANTS = frozenset({"pi", "e", "inf", "nan", "euler_gamma"})


class _Collector(cst.CSTVisitor):
    """One pass over a function body: bindings (target, value) and writes."""

    def __init__(self, func: cst.FunctionDef, numpy_aliases=frozenset({"np", "numpy"})):
        self.func = func
        self.numpy_aliases = numpy_aliases
        self.uses_numpy = False
        self.for_names: set[str] = set()
        self.bindings: list[tuple[cst.BaseExpression, cst.BaseExpression | None]] = []
        self.writes: list[Write] = []
        self.returns: list[cst.BaseExpression] = []
        self.return_nodes: list[cst.Return] = []  # (those with a value)
        self.call_assigns: list[cst.Assign] = []  # `x = call(...)`: candidates for identity_binds
        self.loop_assigns: set[cst.Assign] = set()  # those inside a loop
        self.array_uses: set[str] = set()  # names subscripted or given an attribute (`x[0]`, `x.sum()`)
        self.loops = 0
        self.call_nodes: list[cst.Call] = []
        self.aug_names: list[tuple[cst.Name, cst.AugAssign]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.func  # nested functions are fenced off

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.numpy_aliases:
            self.uses_numpy = True

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, (cst.Name, cst.Tuple, cst.List)) \
                and isinstance(node.value, cst.Call):
            self.call_assigns.append(node)
            if self.loops:
                self.loop_assigns.add(node)
        for t in node.targets:
            self._bind(t.target, node.value, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self.aug_names.append((node.target, node))
            self.bindings.append((node.target, None))
        elif isinstance(node.target, cst.Subscript):
            self.writes.append(Write(node.target.value, node, "augstore"))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Name):
            self.array_uses.add(node.value.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if isinstance(node.value, cst.Name) and node.value.value in self.numpy_aliases \
                and node.attr.value in NUMPY_CONSTANTS:
            # `np.inf`, `np.pi`: Python floats, no NumPy work (a function of them and Python
            # numbers stays as written and returns Python's float, module._touches_arrays)
            return False
        if isinstance(node.value, cst.Name):
            self.array_uses.add(node.value.value)
        return True

    def visit_While(self, node: cst.While) -> None:
        self.loops += 1

    def leave_While(self, original_node: cst.While) -> None:
        self.loops -= 1

    def leave_For(self, original_node: cst.For) -> None:
        self.loops -= 1

    def visit_For(self, node: cst.For) -> None:
        self.loops += 1
        if isinstance(node.target, cst.Name):
            self.for_names.add(node.target.value)
        # `for row in A`: each row is a view of A (and so for enumerate/zip/reversed of arrays).
        it, target = node.iter, node.target
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("enumerate", "zip", "reversed"):
            seqs = [a.value for a in it.args if a.keyword is None]
            names = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
            if it.func.value == "enumerate" and len(names) == 2 and seqs:
                if isinstance(names[0], cst.Name):
                    self.for_names.add(names[0].value)
                self._bind(names[0], None, node)
                self._bind(names[1], _row(seqs[0]), node)
                return
            if it.func.value == "zip" and len(names) == len(seqs):
                for t, sq in zip(names, seqs):
                    self._bind(t, _row(sq), node)
                return
            if it.func.value == "reversed" and seqs:
                it = seqs[0]
        self._bind(target, _row(it), node)

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.returns.append(node.value)
            self.return_nodes.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.call_nodes.append(node)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None, stmt: cst.CSTNode) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(elements) and \
                    not any(isinstance(e, cst.StarredElement) for e in value.elements):
                for t, v in zip(elements, value.elements):
                    self._bind(t, v.value, stmt)
            else:
                for t in elements:
                    self._bind(t.value if isinstance(t, cst.StarredElement) else t, value, stmt)
        elif isinstance(target, cst.Name):
            self.bindings.append((target, value))
        elif isinstance(target, cst.Subscript):
            self.writes.append(Write(target.value, stmt, "store"))
        elif isinstance(target, cst.Attribute):
            self.writes.append(Write(target.value, stmt, "store"))


def param_names(func: cst.FunctionDef) -> tuple[str, ...]:
    p = func.params
    names = [x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)]
    return tuple(names)


def star_names(func: cst.FunctionDef) -> tuple[str, ...]:
    """`args` and `opts` of `def f(a, *args, **opts)`: locals too (param_names lists the
    parameters a call binds by position or keyword)."""
    p = func.params
    return tuple(s.name.value for s in (p.star_arg, p.star_kwarg) if isinstance(s, cst.Param))
