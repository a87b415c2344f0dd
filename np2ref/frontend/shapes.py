"""`X.shape = S` on an array its function just made, as the rebinding `X = X.reshape(S)`, before
analysis.

What: in a function's block, `X.shape = S` right after `X = <a fresh array>` (a NumPy creation
function: np.zeros, np.linspace, np.arange, np.eye, a random draw, ...; or `u.copy()`), where
`X` is a plain local (no parameter, no `global`/`nonlocal`), becomes `X = X.reshape(S)` (no `order=`
given; `u.copy()` is C-ordered). Why:
NPBench-style code sets the shape in place (`X = np.linspace(...); X.shape = (n, n)`), which the
alias analysis cannot model (NPR205). Exact: the array is C-contiguous and no other name holds it
(nothing ran between its creation and the assignment), so the reshape is a view of the same
buffer, of the same shape, and the old object is unreachable: every later read or write through
`X` sees what NumPy's in-place shape change gives; a size that does not fit raises ValueError in
both. Anything else (`X.shape = ...` on a parameter, a view, an array an earlier statement may
have shared) keeps the assignment, and NPR205 refuses it.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.names import ImportMap
from ..analysis.nodes import nodes_of
from ..analysis.numpy_table import is_random_draw
from .outs import Normalizer

# Creation functions whose result is C-contiguous (the `*_like` functions, np.array and np.copy
# keep a Fortran-ordered input's layout, where NumPy's in-place `X.shape = S` raises)
FRESH = frozenset(f"numpy.{n}" for n in """zeros ones empty full linspace logspace geomspace arange eye
    identity""".split())


def normalize_module(module: cst.Module) -> tuple[cst.Module, dict]:
    """(module, origin): the module with each such `X.shape = S` rebound (the same module object
    when there is none); origin maps each new node to the node it stands for."""
    if not any(isinstance(n.target, cst.Attribute) and n.target.attr.value == "shape"
               for n in nodes_of(module, cst.AssignTarget)):
        return module, {}  # (a transformer over the module makes every node anew: a cost per line)
    fix = _ShapeAssign(ImportMap.of(module))
    new = module.visit(fix)
    return (new, fix.origin) if fix.changed else (module, {})


class _ShapeAssign(Normalizer):
    def __init__(self, imports: ImportMap):
        super().__init__(imports)
        self.excluded: list[set[str]] = []  # per function: its parameters and global/nonlocal names

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        p = node.params
        names = {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)}
        names |= {x.name.value for x in (p.star_arg, p.star_kwarg) if isinstance(x, cst.Param)}
        for n in _walk(node.body):
            if isinstance(n, (cst.Global, cst.Nonlocal)):
                names |= {a.name.value for a in n.names}
        self.excluded.append(names)

    def leave_FunctionDef(self, original, updated):
        self.excluded.pop()
        return updated

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock):
        if not self.excluded:
            return updated
        body = list(updated.body)
        for i in range(1, len(body)):
            name = self._fresh_name(body[i - 1])
            if name is not None and name not in self.excluded[-1]:
                body[i] = self._rebound(body[i], name)
        return updated.with_changes(body=body)

    def _fresh_name(self, stmt) -> str | None:
        """`X` when `stmt` is the one statement `X = <a fresh array>`."""
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1
                and isinstance(stmt.body[0].targets[0].target, cst.Name)):
            return None
        value = stmt.body[0].value
        if not isinstance(value, cst.Call) or any(a.star or (a.keyword is not None and a.keyword.value in ("copy", "order"))
                                                  for a in value.args):  # (order='F': not C-contiguous)
            return None
        qual = self.imports.qualify_numpy(value.func)
        fresh = qual is not None and (qual in FRESH or is_random_draw(qual))
        copied = isinstance(value.func, cst.Attribute) and value.func.attr.value == "copy" and not value.args
        return stmt.body[0].targets[0].target.value if fresh or copied else None

    def _rebound(self, stmt, name: str):
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1):
            return stmt
        small = stmt.body[0]
        target = small.targets[0].target
        if not (isinstance(target, cst.Attribute) and target.attr.value == "shape"
                and isinstance(target.value, cst.Name) and target.value.value == name):
            return stmt
        method = cst.Attribute(cst.Name(name), cst.Name("reshape"))
        arg = cst.Arg(small.value)
        reshape = cst.Call(method, [arg])
        bound = cst.Name(name)
        assign_target = cst.AssignTarget(bound)
        new = small.with_changes(targets=[assign_target], value=reshape)
        line = stmt.with_changes(body=[new])
        # every new node stands for a node of the user's line: diagnostics keep its positions
        for made, was in ((method.value, target.value), (method, target), (arg, small.value), (reshape, small.value),
                          (bound, target.value), (assign_target, small.targets[0]), (new, small), (line, stmt)):
            self.origin[made] = was
        self.changed = True
        return line


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)
