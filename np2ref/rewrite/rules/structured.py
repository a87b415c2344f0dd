"""Structured dtypes: `np.zeros(n, [('U', float), ('V', float)])`, `np.dtype([...])`, refused (NPR025).

What: an array whose elements are records with named fields, read by field (`Z['U']`, a view
of one field that writes reach the record through). JAX arrays have no fields: jnp.zeros refused
the dtype with a TypeError naming no line, and `U = Z['U']; U += 1` became a copy where NumPy has
a view. Not exact, so refused where the dtype is written: a list of (name, type) tuples, a dict
with 'names', a comma-separated format string ('f8,i4'), given as a NumPy call's dtype (the
`dtype=` keyword, the creation functions' dtype position, np.dtype's argument) or to
`.astype()` / `.view()`, directly or through a local name bound to one.
"""

from __future__ import annotations

import libcst as cst

from ..registry import plans

# positional index of the dtype parameter, by NumPy function
_DTYPE_POSITION = {f"numpy.{n}": 1 for n in "zeros ones empty array asarray ascontiguousarray zeros_like "
                                             "ones_like empty_like frombuffer fromiter".split()}
_DTYPE_POSITION.update({"numpy.dtype": 0, "numpy.full": 2, "numpy.full_like": 2, "numpy.identity": 1,
                        "numpy.eye": 3, "numpy.arange": 3})

_HINT = ("keep one array per field (`U = np.zeros(n)`, `V = np.zeros(n)`), or the fields along a last "
         "axis (`Z = np.zeros((n, 2))`, `U = Z[:, 0]`: a view, as a field is); see `np2ref explain NPR025`")


@plans(cst.Call, order=30)
def plan_structured_dtype(node: cst.Call, ctx) -> bool:
    spec = _dtype_argument(node, ctx)
    if isinstance(spec, cst.Name):  # `dt = [('a', float), ...]` then `np.zeros(n, dt)`
        spec = next((v for t, v in ctx.f.bindings if isinstance(t, cst.Name) and t.value == spec.value
                     and _structured(v)), None)
    if spec is None or not _structured(spec):
        return False
    ctx.sink.report("NPR025", f"a structured dtype ({_fields(spec)}) is not translated: a JAX array has no "
                    "record fields, and a field read (`Z['U']`) is a view NumPy writes through",
                    ctx.span(node), hint=_HINT)
    return True


def _dtype_argument(call: cst.Call, ctx) -> cst.BaseExpression | None:
    """The expression `call` passes as a dtype, or None."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "dtype":
            return arg.value
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("astype", "view") and ctx.numpy_name(func) is None:
        return positional[0] if positional else None
    position = _DTYPE_POSITION.get(ctx.numpy_name(func) or "")
    return positional[position] if position is not None and len(positional) > position else None


def _structured(spec: cst.BaseExpression) -> bool:
    """A dtype written as records: [('U', float), ...], {'names': ...}, 'f8,f8'."""
    if isinstance(spec, (cst.List, cst.Tuple)):
        return bool(spec.elements) and all(
            isinstance(e.value, cst.Tuple) and e.value.elements and isinstance(e.value.elements[0].value, cst.SimpleString)
            for e in spec.elements)
    if isinstance(spec, cst.Dict):
        return any(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                   and e.key.evaluated_value in ("names", "formats") for e in spec.elements)
    return isinstance(spec, cst.SimpleString) and "," in spec.evaluated_value


def _fields(spec: cst.BaseExpression) -> str:
    if isinstance(spec, (cst.List, cst.Tuple)):
        names = [e.value.elements[0].value.evaluated_value for e in spec.elements]
        return "fields " + ", ".join(f"'{n}'" for n in names)
    return f"`{cst.Module([]).code_for_node(spec)}`"
