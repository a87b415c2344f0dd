"""Sequences passed where NumPy takes an array: `np.meshgrid(range(4), range(n))`, `np.sum([a, b])`.

What: NumPy makes an array of any sequence given for an array argument (np.asarray: a list, a
tuple, a range, nested lists, NumPy's dtype: int64 for a range, float64 for floats); jax.numpy's
functions raise TypeError for one (check_arraylike) and some shims would read it otherwise. The
table says which arguments are arrays (numpy_table.ARRAY_ARGUMENTS); a sequence written there
(by its form: a display, a range, `x.shape`, a name only ever bound to one, a list parameter, one
joined or repeated) goes through npr_np_array, NumPy's own conversion:
`np.meshgrid(range(4), range(3))  ->  jnp.meshgrid(npr_np_array(range(4)), npr_np_array(range(3)))`.
Exact: npr_np_array of a static sequence is np.array of it. Kept as written: any other argument.
"""

from __future__ import annotations

import libcst as cst

from ...analysis import containers
from ...analysis.numpy_table import array_arguments
from ...emit import jaxnames as J


def convert_sequences(original: cst.Call, updated: cst.Call, ctx) -> cst.Call | None:
    """`updated` with each sequence in an array argument converted as NumPy converts it; None
    when there is none."""
    qual = ctx.imports.qualify_numpy(original.func, frozenset(ctx.f.roots))
    positions = array_arguments(qual) if qual else False
    if positions is False:
        return None
    args, changed = list(updated.args), False
    for i, arg in enumerate(original.args):
        if arg.keyword is not None or arg.star:
            break
        if (positions is None or i in positions) and sequence_value(arg.value, ctx):
            args[i] = args[i].with_changes(value=J.call("npr_np_array", args[i].value))
            changed = True
    return updated.with_changes(args=args) if changed else None


def sequence_value(node: cst.BaseExpression, ctx) -> bool:
    """A Python sequence by its form: a list or tuple display, a list comprehension, `range(...)`,
    `x.shape`, a name every binding of which is one of these, a parameter a list argument reaches
    as a list (ctx.list_names), or such a sequence joined (`+`) or repeated (`*`)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Multiply)):
        return sequence_value(node.left, ctx) or sequence_value(node.right, ctx)
    return (isinstance(node, (cst.List, cst.Tuple, cst.ListComp)) or _range_call(node)
            or isinstance(node, cst.Attribute) and node.attr.value == "shape"
            or isinstance(node, cst.Name) and (node.value in containers.sequence_names(ctx.f.bindings, ctx.f.params)
                                              or node.value in ctx.list_names
                                              or node.value in _range_names(ctx)))


def _range_call(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range"


def _range_names(ctx) -> frozenset[str]:
    """Local names every binding of which is `range(...)` (`r = range(n)`)."""
    names: dict[str, bool] = {}
    for t, v in ctx.f.bindings:
        if isinstance(t, cst.Name):
            names[t.value] = names.get(t.value, True) and _range_call(v)
    return frozenset(n for n, ok in names.items() if ok and n not in ctx.f.params)
