"""`break` and `continue` as flags, before analysis: the loop then lowers like any other.

    for i in range(n):                       _break_1 = False
        if a[i] < 0:                         for i in range(n):
            break                                _skip_1 = _break_1
        s += a[i]                    ->          if not _skip_1:
    else:                                            if a[i] < 0:
        s = -1.0                                         _break_1 = True; _skip_1 = True
                                                     if not _skip_1:
                                                         s += a[i]
                                             if not _break_1:
                                                 s = -1.0
`continue` sets `_skip_n` only; the statements after a statement that may set it run under
`if not _skip_n:`. A `while` tests `not _break_n and (test)`, so it also stops (its body starts
with `_skip_n = False`). The flags are Python bools while the conditions are concrete (the loop
runs exactly as written), traced booleans once a condition reads array data (a `for` with a
`break` is then a `fori_loop` whose remaining iterations do nothing: reverse-mode
differentiation and vmap go through it). `npr_for(..., stop=k)` stops a loop it runs in Python
as soon as the break flag (carried value k) is a concrete True.

Exact: the same statements run in the same order; after the break nothing of the loop runs.
A `for` whose variable is read after it (`for it in range(n): ... break` then `return x, it`)
counts in a fresh name and binds the variable in the trips that run, so it holds the break's
trip after the loop (and stays as it was when no trip runs), as in Python.
Left as written (a Python loop, refused by the planners if a condition is traced): a loop whose
tuple target is read outside it, one with a `return` (loop_returns.py made the returns of the
function body's loops breaks), and a
`for` over something that may not end (a call other than range/reversed/enumerate/zip/ndindex);
a tuple or list display (`for di in (-1, 0, 1):`) is finite.

New nodes have no source position of their own: `origin` maps each to the original node it
stands for (the loop, or the `break`), so diagnostics and line marks point at the user's line.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.module_state import names_bound
from ..analysis.nodes import contains, run_visitor
from ..analysis.numpy_table import RANDOM_DRAWS
from . import products, rows
from .rows import names_in as _names
from .loop_returns import loop_returns, returns_to_breaks
from .returns import Lower, early_returns

FINITE_CALLS = frozenset({"range", "reversed", "enumerate", "zip", "ndindex"})
# methods and NumPy functions whose result is an array: `for j in rng.permutation(n)`, `np.arange(n)`
ARRAY_CALLS = RANDOM_DRAWS | {"arange", "linspace", "argsort", "flatnonzero"}


class _Finder(cst.CSTVisitor):
    """Break/Continue/Return directly in one loop's body (not in nested loops or functions)."""

    def __init__(self):
        self.breaks = self.continues = self.returns = False

    def visit_Break(self, node) -> None:
        self.breaks = True

    def visit_Continue(self, node) -> None:
        self.continues = True

    def visit_Return(self, node) -> None:
        self.returns = True

    def visit_For(self, node) -> bool:
        if node.orelse:  # an inner loop's `else:` belongs to this loop
            run_visitor(node.orelse, self)
        return False

    def visit_While(self, node) -> bool:
        if node.orelse:
            run_visitor(node.orelse, self)
        return False

    def visit_FunctionDef(self, node) -> bool:
        return False


def _jumps(body) -> _Finder:
    f = _Finder()
    run_visitor(body, f)
    return f


def left_jumps(body) -> bool:
    """Whether a loop body still holds a `break` or `continue` of its own (a loop left as
    written: its target is used after it, or it has a `return`)."""
    found = _jumps(body)
    return found.breaks or found.continues



def _finite(it: cst.BaseExpression) -> bool:
    if isinstance(it, (cst.Name, cst.Attribute, cst.Subscript, cst.Tuple, cst.List)):
        return True
    if isinstance(it, cst.Call):
        f = it.func
        name = f.value if isinstance(f, cst.Name) else f.attr.value if isinstance(f, cst.Attribute) else None
        return name in FINITE_CALLS or isinstance(f, cst.Attribute) and name in ARRAY_CALLS
    return False


class Desugar:
    """One module function: its loops with `break`/`continue` rewritten to flags. Statements it
    does not change stay the parse's own nodes (their positions are known)."""

    def __init__(self, func: cst.FunctionDef, origin: dict, itertools=(frozenset(), frozenset(), frozenset()),
                 over_rows=None):
        self.itertools = itertools  # the module's names for itertools, its product and repeat
        self.over_rows = over_rows  # a `for` loop over a written array's rows -> True (rows.py)
        self.taken = _names(func)
        self.count = 0
        self.origin = origin
        self.func = func

    def _fresh(self, stem: str) -> str:
        while True:
            self.count += 1
            name = f"_{stem}_{self.count}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def function(self) -> cst.FunctionDef:
        func = self.func
        if loop_returns(func):  # a `return` in a loop: a `break` (frontend/loop_returns.py)
            func = returns_to_breaks(func, self._fresh, self.anchor)
        if early_returns(func):  # a `return` inside an `if`: one exit (frontend/returns.py)
            func = Lower(self._fresh("return"), self.anchor).function(func) or func
        body = self.suite(func.body)
        if body is self.func.body:
            return self.func
        new = func.with_changes(body=body)
        self.origin[new] = self.func
        return new

    def suite(self, suite):
        if not isinstance(suite, cst.IndentedBlock):
            return suite
        out, changed = [], False
        for stmt in suite.body:
            new = self.statement(stmt)
            changed = changed or not (len(new) == 1 and new[0] is stmt)
            out += new
        if not changed:
            return suite
        new_suite = suite.with_changes(body=out)
        self.origin[new_suite] = suite
        return new_suite

    def statement(self, stmt) -> list:
        if isinstance(stmt, cst.For) and self.over_rows is not None and self.over_rows(stmt):
            loop = rows.indexed(stmt, self._fresh("row"), names_bound(stmt.body))
            if loop is not None:  # `for row in a:` over a written array: `row = a[k]` (rows.py)
                self.anchor(loop, stmt)
                new = self.statement(loop)
                self.origin.setdefault(new[0], stmt)
                return new
        if isinstance(stmt, cst.For) and self.itertools[0] | self.itertools[2]:
            loop = products.repeated(stmt, self.itertools, _names(stmt.body), _outside_names(self.func, stmt))
            if loop is not None:  # `for _ in itertools.repeat(None, n)`: `for _ in range(n)`
                self.anchor(loop, stmt)
                new = self.statement(loop)
                self.origin.setdefault(new[0], stmt)
                return new
        if isinstance(stmt, cst.For) and self.itertools[0] | self.itertools[1]:
            loops = products.nested(stmt, self.itertools, names_bound(stmt.body),
                                    _outside_names(self.func, stmt), _jumps(stmt.body).breaks)
            if loops is not None:  # `for i, j in itertools.product(...)`: nested loops
                self.anchor(loops, stmt)
                new = self.statement(loops)
                self.origin.setdefault(new[0], stmt)
                return new
        if isinstance(stmt, (cst.For, cst.While)):
            body = self.suite(stmt.body)
            orelse = stmt.orelse
            if orelse is not None:
                else_body = self.suite(orelse.body)
                if else_body is not orelse.body:
                    orelse = orelse.with_changes(body=else_body)
                    self.origin[orelse] = stmt.orelse
            updated = stmt if body is stmt.body and orelse is stmt.orelse else \
                stmt.with_changes(body=body, orelse=orelse)
            self.origin.setdefault(updated, stmt)
            new = self._loop(stmt, updated, is_for=isinstance(stmt, cst.For))
            return list(new.nodes) if isinstance(new, cst.FlattenSentinel) else [new]
        if isinstance(stmt, cst.If):
            body = self.suite(stmt.body)
            orelse = stmt.orelse
            if isinstance(orelse, cst.If):
                orelse = self.statement(orelse)[0]
            elif isinstance(orelse, cst.Else):
                else_body = self.suite(orelse.body)
                if else_body is not orelse.body:
                    orelse = orelse.with_changes(body=else_body)
                    self.origin[orelse] = stmt.orelse
            if body is stmt.body and orelse is stmt.orelse:
                return [stmt]
            new = stmt.with_changes(body=body, orelse=orelse)
            self.origin[new] = stmt
            return [new]
        return [stmt]

    def _loop(self, original, updated, is_for: bool):
        found = _jumps(updated.body)
        if not (found.breaks or found.continues) or found.returns:
            return updated
        read_after = None  # a loop variable read after the loop: the value of the last trip that ran
        if is_for:
            if not _finite(updated.iter):
                return updated
            outside = _outside_names(self.func, self.origin.get(original, original))  # (a product's loops: its)
            if _names(original.target) & outside:
                if not isinstance(original.target, cst.Name) or \
                        original.target.value in names_bound(original.body):
                    return updated
                read_after = original.target.value
        brk = self._fresh("break") if found.breaks else None
        skip = self._fresh("skip")
        body = _Lower(brk, skip, self).block(list(updated.body.body))[0]
        left = _jumps(cst.IndentedBlock(body=body))
        if left.breaks or left.continues:  # one inside a statement not lowered here (`match`)
            return updated
        if read_after is not None:  # `for it in ...` -> `for _it_n in ...:` + `it = _it_n` in the trips that run
            counter = self._fresh(read_after)
            body = [_assign(read_after, cst.Name(counter)),  # the body reads the counter: a loop index
                    *(stmt.visit(_Rename(read_after, counter)) for stmt in body)]
            updated = updated.with_changes(target=cst.Name(counter))
        top = _assign(skip, cst.Name(brk) if (brk and is_for) else cst.Name("False"))
        if brk and is_for:
            body = [top, _guard(skip, body)]
        else:
            body = [top, *body]
        loop = updated.with_changes(body=updated.body.with_changes(body=body), orelse=None)
        if brk and not is_for:
            loop = loop.with_changes(test=cst.BooleanOperation(
                cst.UnaryOperation(cst.Not(), cst.Name(brk)), cst.And(),
                updated.test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])))
        out = []
        if brk:
            out.append(_assign(brk, cst.Name("False")).with_changes(leading_lines=updated.leading_lines))
            loop = loop.with_changes(leading_lines=[])
        out.append(loop)
        if updated.orelse is not None:
            else_body = list(updated.orelse.body.body)
            out += [_guard(brk, else_body)] if brk else else_body
        for node in out:
            self.anchor(node, original)
        return cst.FlattenSentinel(out)

    def anchor(self, node, original) -> None:
        """Every node of `node`'s tree that the parse did not make stands for `original`."""
        origin = self.origin

        class V(cst.CSTVisitor):
            def on_visit(self, n) -> bool:
                if n not in origin.get("_known", ()):
                    origin.setdefault(n, original)
                return True
        run_visitor(node, V())


class _Lower:
    """A loop body's statements with its own break/continue turned into flag assignments and
    the statements after one that may set the skip flag guarded by it."""

    def __init__(self, brk, skip, owner: Desugar):
        self.brk, self.skip, self.owner = brk, skip, owner

    def jump(self, node) -> list:
        stmts = [cst.Assign([cst.AssignTarget(cst.Name(self.brk))], cst.Name("True"))] \
            if isinstance(node, cst.Break) else []
        return stmts + [cst.Assign([cst.AssignTarget(cst.Name(self.skip))], cst.Name("True"))]

    def block(self, stmts: list):
        """(the lowered statements, whether they always jump): after a statement that may jump,
        the rest runs under `if not skip:`."""
        out = []
        for k, stmt in enumerate(stmts):
            new, jumps, ends = self.statement(stmt)
            out += new
            if ends:  # an unconditional break/continue: the rest never runs
                return out, True
            if jumps and stmts[k + 1:]:
                out.append(_guard(self.skip, self.block(stmts[k + 1:])[0]))
                return out, False
        return out, False

    def statement(self, stmt):
        """([lowered statements], may jump, always jumps)."""
        if isinstance(stmt, cst.SimpleStatementLine):
            small = []
            for s in stmt.body:
                if isinstance(s, (cst.Break, cst.Continue)):
                    small += self.jump(s)
                    line = stmt.with_changes(body=[x.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for x in small])
                    self.owner.anchor(line, s)
                    return [line], True, True
                small.append(s)
            return [stmt], False, False
        if isinstance(stmt, cst.If) and _jumps(stmt).breaks | _jumps(stmt).continues:
            new, always = self.lower_if(stmt)
            return [new], True, always
        return [stmt], False, False

    def lower_if(self, node: cst.If):
        body, always_body = self.suite(node.body)
        orelse, always_else = node.orelse, False
        if isinstance(orelse, cst.If):
            orelse, always_else = self.lower_if(orelse)
        elif isinstance(orelse, cst.Else):
            new, always_else = self.suite(orelse.body)
            orelse = orelse.with_changes(body=new)
        new_if = node.with_changes(body=body, orelse=orelse)
        self.owner.anchor(new_if, node)
        return new_if, always_body and node.orelse is not None and always_else

    def suite(self, suite):
        stmts = list(suite.body)
        if isinstance(suite, cst.SimpleStatementSuite):  # `if c: break` on one line
            stmts = [cst.SimpleStatementLine(body=list(suite.body))]
            self.owner.origin[stmts[0]] = suite
        lowered, always = self.block(stmts)
        return cst.IndentedBlock(body=lowered or [cst.SimpleStatementLine([cst.Pass()])]), always


class _Rename(cst.CSTTransformer):
    """Reads of `old` as `new`, outside nested functions and lambdas (which read it late)."""

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def leave_Name(self, original, updated):
        return updated.with_changes(value=self.new) if updated.value == self.old else updated

    def leave_Attribute(self, original, updated):  # `obj.it` names no variable
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original, updated):  # nor does the keyword of `f(it=1)`
        return updated.with_changes(keyword=original.keyword)


def _assign(name: str, value) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value)])


def _guard(flag: str, body: list) -> cst.If:
    test = cst.UnaryOperation(cst.Not(), cst.Name(flag))
    return cst.If(test, cst.IndentedBlock(body=body or [cst.SimpleStatementLine([cst.Pass()])]))


def _outside_names(func: cst.FunctionDef, loop) -> set[str]:
    """Names used in the function outside `loop` (its body, target and `else:`)."""
    found: set[str] = set()

    class V(cst.CSTVisitor):
        def on_visit(self, n) -> bool:
            if n is loop:
                return False
            if isinstance(n, cst.Name):
                found.add(n.value)
            return True
    run_visitor(func.body, V())
    return found


def _union(names) -> frozenset:
    return frozenset().union(*names)


def desugar_module(module: cst.Module, over_rows=None):
    """(module, origin): the module with the loops of its top-level functions desugared (the
    same module object when none has a break or continue); origin maps the new nodes.
    `over_rows`: which `for` loops iterate over a written array's rows (rows.py), or None."""
    origin: dict = {}
    body = []
    names = products.itertools_names(module)
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and (_jumps_anywhere(stmt) or early_returns(stmt) or loop_returns(stmt)
                                                  or over_rows
                                                  or (_union(names) and _names(stmt) & _union(names))):
            known = set()

            class K(cst.CSTVisitor):
                def on_visit(self, n) -> bool:
                    known.add(n)
                    return True
            run_visitor(stmt, K())
            origin["_known"] = known
            body.append(Desugar(stmt, origin, names, over_rows).function())
        else:
            body.append(stmt)
    origin.pop("_known", None)
    if all(a is b for a, b in zip(body, module.body)):
        return module, {}
    return module.with_changes(body=body), origin


def restore(module: cst.Module, originals: dict, converted) -> cst.Module:
    """The rewritten module with each desugared function that was not converted (host code, a
    function outside `only`) back as the user wrote it: it runs as Python, break and all."""
    body = [originals[s.name.value] if isinstance(s, cst.FunctionDef) and s.name.value in originals
            and s.name.value not in converted else s for s in module.body]
    return module.with_changes(body=body) if any(a is not b for a, b in zip(body, module.body)) else module


def _jumps_anywhere(func) -> bool:
    return contains(func, (cst.Break, cst.Continue))


class Positions:
    """Source positions of the desugared module: the original node's for the nodes the parse
    made, the position of the node a new one stands for otherwise."""

    def __init__(self, original, origin: dict):
        self.original, self.origin = original, origin

    def _find(self, node):
        seen = 0
        while node not in self.original and node in self.origin and seen < 50:
            node, seen = self.origin[node], seen + 1
        return node

    def __getitem__(self, node):
        return self.original[self._find(node)]

    def __contains__(self, node) -> bool:
        return self._find(node) in self.original
