"""A `return` inside an `if` as one exit, before analysis: the `if` then lowers like any other.

    def clip_step(x, i):                     def clip_step(x, i):
        if x[i] > 0:                             if x[i] > 0:
            return x[i]                  ->          _return_1 = x[i]
        return 0.0                               else:
                                                     _return_1 = 0.0
                                                 return _return_1

The statements after an `if` whose branch always returns run in its other branch (an `else:`
made for them when it has none); each `return v` becomes `_return_n = v`, and the function ends
with one `return _return_n`. On a condition that reads array data the `if` is then a lax.cond
(rewrite/rules/branches.py), which promotes the two values as NumPy would or refuses them
(NPR122, NPR128); on a concrete one it is Python's `if` and runs as written.

Exact: the same statements run in the same order and the function returns the same object.
Only functions with a `return` under a condition that may read array data are rewritten (one
on shapes, None or types, `if lo is None: return u`, stays as written: the identity-return and
view analyses see its returns). A `return` in a loop of the function body is a `break` by then
(frontend/loop_returns.py). Left as written (a data-dependent condition there is refused when
traced, NPR030): a function with a `return` inside another loop, `try`, `with` or `match`; one with a path that ends without a
`return` (its None would meet a value in lax.cond) unless every `return` of it gives None (union-find's
`if ra == rb: return`, then writes: the end is a `return` too, each `return` becomes `pass`, and no
variable is made); an `if` whose branches both may fall through to the statements after it
(lowering it would copy them into both branches).
"""

from __future__ import annotations

import libcst as cst
from ..analysis.nodes import contains, run_visitor


class _Where(cst.CSTVisitor):
    """Whether the function's returns are all outside loops, try, with and match (nested
    functions and lambdas are their own), and whether one is inside an `if` whose condition
    may read array data (one on shapes, None or types stays Python's `if`, returns and all)."""
    layout_blind = True  # (analysis/nodes.run_visitor: on_visit/on_leave do nothing with whitespace, commas)

    def __init__(self, selected=None):
        from ..rewrite.rules.branches import static_condition  # (rewrite imports this package)

        self.static = lambda test: static_condition(test, selected)  # (`if len(idx) == 0:` reads data)
        self.in_if = self.blocked = False
        self.ifs: list[bool] = []  # per `if` around the current node: its condition is static
        self.other = 0  # loops, try, with, match around it

    def visit_Return(self, node) -> None:
        self.blocked |= self.other > 0
        self.in_if |= not all(self.ifs)

    def visit_If(self, node) -> None:
        self.ifs.append(self.static(node.test))

    def leave_If(self, node) -> None:
        self.ifs.pop()

    def on_visit(self, node) -> bool:
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(node, (cst.For, cst.While, cst.Try, cst.With, cst.Match)) \
                or type(node).__name__ == "TryStar":
            self.other += 1
        return super().on_visit(node)

    def on_leave(self, node) -> None:
        if isinstance(node, (cst.For, cst.While, cst.Try, cst.With, cst.Match)) \
                or type(node).__name__ == "TryStar":
            self.other -= 1
        super().on_leave(node)


def early_returns(func: cst.FunctionDef) -> bool:
    """Whether `func` has a `return` inside an `if` on data that lower() may turn into one exit."""
    from ..rewrite.rules.mask_items import selected_by_form

    if not contains(func.body, cst.If) or not contains(func.body, cst.Return):
        return False  # (no `if`, or no `return`: none inside an `if`; most functions, at a walk's cost)
    where = _Where(selected_by_form(func))
    for stmt in func.body.body:
        run_visitor(stmt, where)
    return where.in_if and not where.blocked


class _Returns(cst.CSTVisitor):
    found = False

    def visit_Return(self, node) -> None:
        self.found = True

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False


class _Values(cst.CSTVisitor):
    """Whether a `return` gives a value other than None (nested functions are their own)."""
    found = False

    def visit_Return(self, node) -> None:
        self.found |= node.value is not None and not (isinstance(node.value, cst.Name) and node.value.value == "None")

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False


def _none_only(func: cst.FunctionDef) -> bool:
    """Whether every `return` of `func` gives None (`return`, `return None`), so a path that falls
    off its end returns what the others do."""
    v = _Values()
    for stmt in func.body.body:
        run_visitor(stmt, v)
    return not v.found


def _returns(node) -> bool:
    v = _Returns()
    run_visitor(node, v)
    return v.found


class Lower:
    """One function's body with its returns turned into assignments to `name` (None: the
    function is left as written). `anchor(new, original)` maps each new node to the user's."""

    def __init__(self, name: str, anchor):
        self.name, self.anchor = name, anchor
        self.none_only = False  # every return gives None: a `return` becomes `pass`, no variable

    def function(self, func: cst.FunctionDef):
        stmts = list(func.body.body)
        self.none_only = _none_only(func)
        if self.none_only:  # `if ra == rb: return` then falling off the end: None either way
            end = cst.SimpleStatementLine([cst.Return(None)])
            self.anchor(end, stmts[-1])
            stmts.append(end)
        body, always = self.block(stmts)
        if body is None or not always:
            return None
        if self.none_only:
            ret = cst.SimpleStatementLine([cst.Return(None)])
            self.anchor(ret, func)
            return func.with_changes(body=func.body.with_changes(body=[*body, ret]))
        ret = cst.SimpleStatementLine([cst.Return(cst.Name(self.name))])
        self.anchor(ret, func)
        return func.with_changes(body=func.body.with_changes(body=[*body, ret]))

    def block(self, stmts: list):
        """(the lowered statements or None, whether every path through them returns)."""
        out = []
        for k, stmt in enumerate(stmts):
            if isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(s, cst.Return) for s in stmt.body):
                new = self._assign(stmt)  # what follows never runs
                if self.none_only and out and new.deep_equals(cst.SimpleStatementLine([cst.Pass()])):
                    return out, True  # (a bare `return` after other statements: nothing to say)
                return out + [new], True
            if isinstance(stmt, cst.If) and _returns(stmt):
                new, always = self._if(stmt, stmts[k + 1:])
                return (None, False) if new is None else (out + [new], always)
            out.append(stmt)
        return out, False

    def _assign(self, line: cst.SimpleStatementLine):
        small = []
        for s in line.body:
            if isinstance(s, cst.Return) and self.none_only:
                small.append(cst.Pass())
                break
            if isinstance(s, cst.Return):
                value = s.value if s.value is not None else cst.Name("None")
                small.append(cst.Assign([cst.AssignTarget(cst.Name(self.name))], value))
                break
            small.append(s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT))
        new = line.with_changes(body=small)
        self.anchor(new, line)
        return new

    def _if(self, node: cst.If, rest: list):
        """The `if` with `rest` in the branches that may fall through (None when both may: the
        statements would be copied into both)."""
        body, always_body = self.block(self._statements(node.body))
        orelse, always_else = self._else(node, [])
        if body is None or orelse is None or (rest and not always_body and not always_else):
            return None, False
        if rest and not always_body:
            body, always_body = self.block(self._statements(node.body) + rest)
        elif rest and not always_else:
            orelse, always_else = self._else(node, rest)
        if body is None or orelse is None:
            return None, False
        new_else = None
        if orelse:
            new_else = cst.Else(cst.IndentedBlock(body=orelse))
            self.anchor(new_else, node.orelse if node.orelse is not None else node)
        new = node.with_changes(body=cst.IndentedBlock(body=body or [cst.SimpleStatementLine([cst.Pass()])]),
                                orelse=new_else)
        self.anchor(new, node)
        return new, always_body and always_else

    def _else(self, node: cst.If, rest: list):
        """(the statements of the `else:` (an `elif` as one `if`) then `rest`, lowered, or None;
        whether every path through them returns)."""
        if isinstance(node.orelse, cst.If):
            new, always = self._if(node.orelse, rest)
            return (None, False) if new is None else ([new], always)
        stmts = self._statements(node.orelse.body) if isinstance(node.orelse, cst.Else) else []
        return self.block(stmts + rest)

    def _statements(self, suite) -> list:
        if isinstance(suite, cst.IndentedBlock):
            return list(suite.body)
        line = cst.SimpleStatementLine(body=list(suite.body))  # `if c: return v` on one line
        self.anchor(line, suite)
        return [line]


def left_as_written(source: str, line: int) -> str | None:
    """NPR030's message for an `if` on array data at `line` of `source` that kept a `return`
    (the function was left as written: see the module docstring), else None."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and node.lineno == line \
                and any(isinstance(n, ast.Return) for n in _own_nodes(node)):
            return ("an `if` on array data with a `return` inside: np2ref makes such a function one "
                    "exit only when every path through it ends in a `return` outside loops, try and "
                    "with, the statements after the `if` follow one branch only, and no branch returns "
                    "an array the function writes")
        rebound = _rebound_then_written(node, tree, line)
        if rebound is not None:
            return (f"an `if` on array data rebinds `{rebound}`, an array written after the `if`: which array "
                    "the write reaches (the one passed in, or the new one) would depend on the data")
    return None


def _rebound_then_written(node, tree, line) -> str | None:
    """The name an `if` at `line` binds in a branch and a later statement of its block stores
    into (`if t > 0: x = x * 2` then `x[x > t] = 0`), else None."""
    import ast

    if not (isinstance(node, ast.If) and node.lineno == line):
        return None
    bound = {t.id for n in _own_nodes(node) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    for block in ast.walk(tree):
        for field in ("body", "orelse"):
            stmts = getattr(block, field, None)
            if isinstance(stmts, list) and node in stmts:
                for later in stmts[stmts.index(node) + 1:]:
                    for n in ast.walk(later):
                        target = n.targets[0] if isinstance(n, ast.Assign) else n.target if isinstance(n, ast.AugAssign) else None
                        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                                and target.value.id in bound:
                            return target.value.id
    return None


def _own_nodes(node):
    """The nodes inside `node`, not those of nested functions, lambdas and classes."""
    import ast

    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack += list(ast.iter_child_nodes(n))
