"""Positional out arguments of NumPy's ufuncs as the `out=` keyword they are, before analysis.

What: `np.add(a, b, a)` -> `np.add(a, b, out=a)`, `np.sqrt(x, x, where=m)` -> `np.sqrt(x,
where=m, out=x)`: a single-output ufunc takes its output after its nin inputs. Why: every later
stage (the alias analysis, the effects, the `out=` rule) reads the keyword alone; a positional
out was passed to the ufunc's shim as a third input, a TypeError when traced (and the write was
not seen). Exact: it is the same call to NumPy. The new nodes map back to the user's
(`origin`, read by jumps.Positions), so diagnostics keep the user's positions.
"""

from __future__ import annotations

import libcst as cst
import numpy as np

from ..analysis.names import ImportMap
from ..analysis.nodes import nodes_of
from ..analysis.numpy_table import UFUNCS


def normalize_module(module: cst.Module) -> tuple[cst.Module, dict]:
    """(module, origin): the module with positional outs as `out=` (the same module object when
    it has none); origin maps each new node to the node it stands for."""
    imports = ImportMap.of(module)
    if not imports.numpy_aliases() and not any(q.startswith("numpy.") for q in imports.aliases.values()):
        return module, {}
    if not any(_positional_out(node, imports) is not None for node in nodes_of(module, cst.Call)):
        return module, {}  # (a transformer over the module makes every node anew: a cost per line)
    fix = _PositionalOut(imports)
    new = module.visit(fix)
    return (new, fix.origin) if fix.changed else (module, {})  # (libcst makes new nodes either way)


class Normalizer(cst.CSTTransformer):
    """A rewrite of the module before analysis that keeps the user's positions: `origin` maps
    each node it makes (libcst makes every node anew) to the one it stands for; `changed` says
    whether any rewrite was made."""

    def __init__(self, imports: ImportMap):
        super().__init__()
        self.imports = imports
        self.origin: dict = {}
        self.changed = False

    def on_leave(self, original_node, updated_node):
        result = super().on_leave(original_node, updated_node)
        if result is not original_node and isinstance(result, cst.CSTNode):
            self.origin[result] = original_node
        return result


class _PositionalOut(Normalizer):

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if _positional_out(original, self.imports) is None:
            return updated
        given = [a for a in updated.args if a.keyword is None][-1]
        out = given.with_changes(keyword=cst.Name("out"), equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
            comma=cst.MaybeSentinel.DEFAULT)
        self.origin[out] = given
        self.changed = True
        rest = [a for a in updated.args if a is not given]
        rest = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) if i == len(rest) - 1 else a
                for i, a in enumerate(rest)]
        return updated.with_changes(args=[*rest, out])


def _positional_out(call: cst.Call, imports: ImportMap) -> cst.Arg | None:
    """The argument of a single-output ufunc's call given in out's position, if any."""
    qual = imports.qualify_numpy(call.func)
    if qual not in UFUNCS or any(a.star for a in call.args) \
            or any(a.keyword is not None and a.keyword.value == "out" for a in call.args):
        return None
    ufunc = getattr(np, qual[len("numpy."):], None)
    positional = [a for a in call.args if a.keyword is None]
    return positional[-1] if isinstance(ufunc, np.ufunc) and len(positional) == ufunc.nin + 1 else None
