"""The effects table: which arguments a call writes, which it may return a view of, and which
one it returns as itself (so that `x = f(x)` rebinds nothing: analysis/identity.py).

NumPy functions are known by qualified name; module functions get their entry from the
alias analysis of their body (computed to a fixed point in `analysis.module`). A call to a
function that is in neither is refused by the fence, so "unknown" never silently means "pure".
"""

from __future__ import annotations

import dataclasses

import libcst
import numpy as np

from . import numpy_table as T

# What NumPy names write or return views of: rows of the NumPy table (analysis/numpy_table.py).
INPLACE_FUNCTIONS = {name: entry.writes for name, entry in T.IN_PLACE_FUNCTIONS.items()}  # -> argument written
INPLACE_METHODS = frozenset(T.IN_PLACE_METHODS)
REFUSED_INPLACE_METHODS = T.REFUSED_INPLACE_METHODS
UFUNC_AT = T.UFUNC_AT
VIEW_FUNCTIONS, VIEW_METHODS, VIEW_ATTRIBUTES = T.VIEW_FUNCTIONS, T.VIEW_METHODS, T.VIEW_ATTRIBUTES
OPAQUE_VIEW_FUNCTIONS = T.OPAQUE_VIEW_FUNCTIONS
OPAQUE_VIEW_METHODS, OPAQUE_VIEW_ATTRIBUTES = T.OPAQUE_VIEW_METHODS, T.OPAQUE_VIEW_ATTRIBUTES



def view_call(qual: str | None, call) -> str | None:
    """The np2ref.rt helper of a NumPy call that returns a view of its first operand (VIEW_FUNCTIONS),
    else None. `np.array(x, copy=False)` and `copy=None` are NumPy 2's `np.asarray(x, copy=...)`:
    x itself where no copy is needed (copy=False raises ValueError where one is), so a write
    through the result reaches x (it was taken for a new array: x's writes lost)."""
    if qual in VIEW_FUNCTIONS:
        return VIEW_FUNCTIONS[qual]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if qual == "numpy.array" and sum(a.keyword is None and not a.star for a in call.args) <= 2 \
            and getattr(keywords.get("copy"), "value", None) in ("False", "None") \
            and set(keywords) <= {"dtype", "copy", "order"} and not any(a.star for a in call.args):
        return VIEW_FUNCTIONS["numpy.asarray"]
    return None


# Every public method and attribute of an ndarray (what `x.<name>` can mean on an array).
ARRAY_METHODS = frozenset(n for n in dir(np.ndarray) if not n.startswith("_"))

# Attributes of an array that are metadata, not data: reading them needs no load.
METADATA_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size"})

# Builtins a converted function may call; none writes an array.
SAFE_BUILTINS = frozenset({
    "len", "range", "int", "float", "bool", "complex", "abs", "min", "max", "sum", "round",
    "enumerate", "zip", "reversed", "tuple", "list", "dict", "isinstance", "divmod", "pow",
    "slice", "sorted", "any", "all", "map", "type", "str", "repr", "hasattr", "getattr",
})


@dataclasses.dataclass
class Effects:
    """What a call to a module function does to its arguments."""

    mutated: frozenset[str] = frozenset()       # parameter names it writes
    returns_alias: frozenset[str] = frozenset()  # parameters whose storage the result may share
    params: tuple[str, ...] = ()
    returns_param: str | None = None             # the parameter it returns as itself on every path
    returned: object = None                      # identity.ReturnedItems: the same, item by item
    item_alias: tuple = ()                       # per returned item, the parameters it may share storage with


def call_params(args, params: tuple[str, ...]) -> list:
    """(argument, the parameter it binds) for each argument of a call (libcst `Arg`s), in call
    order; the parameter is None where the call does not name it: a `*args` or `**kwargs`
    binds parameters only known at run time, and so does every positional argument after a
    `*args`."""
    out, position, unpacked = [], 0, False
    for arg in args:
        if arg.star:
            unpacked = True
            out.append((arg, None))
        elif arg.keyword is not None:
            out.append((arg, arg.keyword.value if arg.keyword.value in params else None))
        else:
            out.append((arg, params[position] if not unpacked and position < len(params) else None))
            position += 1
    return out


# Raising a builtin exception is fine in a converted function (it raises at trace time).
SAFE_BUILTINS = SAFE_BUILTINS | frozenset(
    name for name, obj in vars(__import__("builtins")).items()
    if isinstance(obj, type) and issubclass(obj, BaseException))


def copy_false(call, qual) -> bool:
    """`a.astype(t, copy=False)`, `np.ascontiguousarray(a)`, `np.asfortranarray(a)` (`qual`: the
    call's NumPy name, None for a method): NumPy returns `a` itself where its dtype (and layout)
    already fit, a new array otherwise; a may-view, which np2ref does not model where either is
    written (NPR205). (`np.array(a, copy=False)` and `copy=None` are modelled: view_call.)"""
    if qual in ("numpy.ascontiguousarray", "numpy.asfortranarray"):
        return True
    return qual is None and isinstance(call.func, libcst.Attribute) and call.func.attr.value == "astype" and any(
        a.keyword is not None and a.keyword.value == "copy" and isinstance(a.value, libcst.Name)
        and a.value.value in ("False", "None") for a in call.args)
