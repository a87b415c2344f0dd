"""The effects table: which arguments a call writes, which it may return a view of, and which
one it returns as itself (so that `x = f(x)` rebinds nothing: analysis/identity.py).

NumPy functions are known by qualified name; module functions get their entry from the
alias analysis of their body (computed to a fixed point in `analysis.module`). A call to a
function that is in neither is refused by the fence, so "unknown" never silently means "pure".
"""

from __future__ import annotations

import dataclasses

import numpy as np

# In-place NumPy functions: qualified name -> index of the argument they write.
INPLACE_FUNCTIONS = {
    "numpy.copyto": 0,
    "numpy.putmask": 0,
    "numpy.put": 0,
    "numpy.place": 0,
    "numpy.fill_diagonal": 0,
}

# In-place array methods the translator handles.
INPLACE_METHODS = frozenset({"fill", "sort", "put"})
# In-place array methods it refuses (no exact static-shape meaning, or rarely worth it).
REFUSED_INPLACE_METHODS = frozenset({"resize", "partition", "itemset", "setfield", "byteswap", "setflags"})

# `np.<ufunc>.at` that are translated; any other `.at` is refused.
UFUNC_AT = frozenset({"add", "subtract", "multiply", "maximum", "minimum"})

# Functions and methods that return a view of their first operand, with the runtime helper
# that reproduces the view (a write through it lands in the base).
VIEW_FUNCTIONS = {
    "numpy.asarray": "npr_asarray",
    "numpy.asanyarray": "npr_asarray",
    "numpy.transpose": "npr_transpose",
    "numpy.reshape": "npr_reshape",
    "numpy.ravel": "npr_ravel",
    "numpy.swapaxes": "npr_swapaxes",
}
VIEW_METHODS = {
    "reshape": "npr_reshape",
    "ravel": "npr_ravel",
    "transpose": "npr_transpose",
    "swapaxes": "npr_swapaxes",
    "view": "npr_asarray",
}
VIEW_ATTRIBUTES = {"T": "npr_transpose"}

# NumPy functions that may return a view but whose views np2ref does not model: writing
# through their result, or reading it after the base was written, is refused (NPR205).
OPAQUE_VIEW_FUNCTIONS = frozenset({
    "numpy.squeeze", "numpy.moveaxis", "numpy.expand_dims", "numpy.atleast_1d",
    "numpy.atleast_2d", "numpy.atleast_3d", "numpy.broadcast_to", "numpy.diagonal",
    "numpy.flip", "numpy.fliplr", "numpy.flipud", "numpy.rot90", "numpy.real", "numpy.imag",
    "numpy.split", "numpy.array_split", "numpy.hsplit", "numpy.vsplit",
})
OPAQUE_VIEW_METHODS = frozenset({"squeeze", "diagonal", "flatten_view"})
OPAQUE_VIEW_ATTRIBUTES = frozenset({"real", "imag", "flat", "mT"})

# Every public method and attribute of an ndarray (what `x.<name>` can mean on an array).
ARRAY_METHODS = frozenset(n for n in dir(np.ndarray) if not n.startswith("_"))

# Attributes of an array that are metadata, not data: reading them needs no load.
METADATA_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size"})

# Builtins a converted function may call; none writes an array.
SAFE_BUILTINS = frozenset({
    "len", "range", "int", "float", "bool", "complex", "abs", "min", "max", "sum", "round",
    "enumerate", "zip", "reversed", "tuple", "list", "dict", "isinstance", "divmod", "pow",
    "slice", "sorted", "any", "all", "map", "type", "str", "hasattr", "getattr",
})


@dataclasses.dataclass
class Effects:
    """What a call to a module function does to its arguments."""

    mutated: frozenset[str] = frozenset()       # parameter names it writes
    returns_alias: frozenset[str] = frozenset()  # parameters whose storage the result may share
    params: tuple[str, ...] = ()
    returns_param: str | None = None             # the parameter it returns as itself on every path


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
