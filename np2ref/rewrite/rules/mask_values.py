"""What a masked store's value may be (mask_store.py's planning reads): which expressions and module
helpers are elementwise, so computing on whole arrays and masking after equals NumPy's masked
computation, and which names hold booleans (a mask) in a function and in its loops."""

from __future__ import annotations

import libcst as cst

from ...analysis.names import ImportMap
from ...analysis.nodes import nodes_of
from ...analysis.numpy_table import UFUNCS
from .nonzero import nonzero_operand


_ELEMENTWISE_BINOPS = (
    cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
    cst.BitAnd, cst.BitOr, cst.BitXor, cst.LeftShift, cst.RightShift,
)


# NumPy's scalar types called on one value cast it element by element (`np.float32(3.0)`,
# `np.int64(x[m])`; the rewrite keeps NumPy's float -> integer cast, calls.py's npr_scalar_type)
_SCALAR_TYPES = frozenset(f"numpy.{t}" for t in "float16 float32 float64 int8 int16 int32 int64 uint8 uint16 "
                                                 "uint32 uint64".split())
_ELEMENTWISE_FUNCS = frozenset({"numpy.where", "numpy.clip"}) | frozenset(UFUNCS) | _SCALAR_TYPES


def _returned(func: cst.FunctionDef) -> cst.BaseExpression | None:
    """The expression of a function whose body is `return expr` (after a docstring), with
    plain positional parameters; else None."""
    p = func.params
    if p.star_arg is not cst.MaybeSentinel.DEFAULT and p.star_arg is not None or p.kwonly_params or \
            p.star_kwarg is not None or p.posonly_params or any(x.default is not None for x in p.params) or \
            func.decorators or not isinstance(func.body, cst.IndentedBlock):
        return None
    body = list(func.body.body)
    if body and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 and \
            isinstance(body[0].body[0], cst.Expr) and isinstance(body[0].body[0].value, cst.SimpleString):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        return None
    ret = body[0].body[0]
    return ret.value if isinstance(ret, cst.Return) and ret.value is not None else None


def _elementwise(node, leaf, call) -> bool:
    """Whether `node` is arithmetic, comparisons and elementwise calls over leaves: `leaf(node)`
    says True/False for the nodes it knows (names, subscripts) and None for the rest; `call(node)`
    whether a call's function is elementwise."""
    def walk(node) -> bool:
        known = leaf(node)
        if known is not None:
            return known
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return True
        if isinstance(node, cst.BinaryOperation):
            return isinstance(node.operator, _ELEMENTWISE_BINOPS) and walk(node.left) and walk(node.right)
        if isinstance(node, cst.UnaryOperation):
            return walk(node.expression)
        if isinstance(node, cst.Comparison):
            return walk(node.left) and all(walk(c.comparator) for c in node.comparisons)
        if isinstance(node, cst.Call) and not any(a.keyword is not None or a.star for a in node.args):
            if _is_cast(node):
                return walk(node.func.value)  # `(w[m] - cap).astype(np.float64)`: cast per element
            return call(node) and all(walk(a.value) for a in node.args)
        return False
    return walk(node)


_DTYPE_BUILTINS = frozenset({"float", "int", "bool", "complex"})


def _is_cast(node: cst.Call) -> bool:
    """`expr.astype(dtype)` with one positional dtype spelled as one: a builtin type, a string,
    or an attribute `np.float64` (no keywords: `copy=`, `casting=`). Elementwise: each element
    is cast alone (the emitted npr_astype keeps NumPy's float -> integer cast)."""
    if not (isinstance(node.func, cst.Attribute) and node.func.attr.value == "astype" and len(node.args) == 1):
        return False
    dtype = node.args[0].value
    return isinstance(dtype, cst.SimpleString) or isinstance(dtype, cst.Name) and dtype.value in _DTYPE_BUILTINS \
        or isinstance(dtype, cst.Attribute) and isinstance(dtype.value, cst.Name)


def _elementwise_call(node: cst.Call, imports: ImportMap, local_names, helpers, depth: int) -> bool:
    """A NumPy ufunc (or where/clip), or a module helper that is elementwise (elementwise_helper)."""
    qual = imports.qualify_numpy(node.func, local_names)
    return qual in _ELEMENTWISE_FUNCS or (
        qual is None and isinstance(node.func, cst.Name) and node.func.value not in local_names
        and elementwise_helper(node.func.value, helpers, imports, depth + 1))


def elementwise_helper(name: str, helpers, imports: ImportMap, depth: int = 0) -> bool:
    """Whether module function `name` (a def, or a nested def or lambda lifted to one) is
    `return expr` with expr elementwise in its parameters alone: arithmetic, comparisons,
    NumPy's elementwise functions, numbers, other such helpers. Called on whole arrays, it then
    gives at each position what it gives on the masked values there."""
    facts = helpers.get(name) if helpers else None
    expr = _returned(facts.node) if facts is not None and depth < 4 else None
    if expr is None:
        return False
    params = frozenset(p.name.value for p in facts.node.params.params)
    return _elementwise(expr, lambda n: n.value in params if isinstance(n, cst.Name) else None,
                        lambda n: _elementwise_call(n, imports, params, helpers, depth))


def looks_boolean(index: cst.BaseExpression, bool_names) -> bool:
    """An index that is a mask by its form: a comparison, `~m`, `m & n`, or a name bound to one."""
    if isinstance(index, cst.Comparison):
        return True
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.BitInvert):
        return looks_boolean(index.expression, bool_names) or isinstance(index.expression, cst.Name)
    if isinstance(index, cst.BinaryOperation) and isinstance(index.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
        return looks_boolean(index.left, bool_names) or looks_boolean(index.right, bool_names)
    if isinstance(index, cst.Name):
        return index.value in bool_names
    if isinstance(index, cst.Call):  # NumPy's predicates return boolean arrays
        func = index.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return name in _PREDICATES or nonzero_operand(index) is not None  # (np.nonzero(m): rules/nonzero.py)
    return False


_PREDICATES = frozenset({
    "isfinite", "isnan", "isinf", "isneginf", "isposinf", "signbit", "isclose", "logical_and",
    "logical_or", "logical_not", "logical_xor", "greater", "greater_equal", "less", "less_equal",
    "equal", "not_equal",
})


def boolean_names(bindings) -> frozenset[str]:
    """Names bound (only) to boolean-looking expressions: comparisons, `~m`, `m & n`."""
    names: set[str] = set()
    pairs = [(t.value, v) for t, v in bindings if v is not None]
    changed = True
    while changed:
        changed = False
        for name, value in pairs:
            if name not in names and looks_boolean(value, names) and nonzero_operand(value) is None:
                names.add(name)
                changed = True
    return frozenset(names)


def mask_loop_names(func: cst.FunctionDef, bindings, bool_names) -> tuple[frozenset[str], frozenset[str]]:
    """(the targets of `for m in (red, black):` over a tuple or list of masks, each element a
    mask by its form; those whose elements may also be names of unknown kind, `for m in (mask,
    ~mask)` with a parameter `mask`, decided when traced as a parameter is), when nothing else
    binds them to another value: a Python loop the trace unrolls, each pass with an array."""
    loops = [n for n in nodes_of(func, cst.For) if isinstance(n.target, cst.Name)]
    iters = {id(n.iter) for n in loops}  # a loop's own binding is `iter[0]` (analysis/aliases.py)
    rebound = {t.value for t, v in bindings if isinstance(t, cst.Name) and v is not None
               and not (isinstance(v, cst.Subscript) and id(v.value) in iters) and not looks_boolean(v, bool_names)}

    def walked(element_test):
        masks, others = set(), set(rebound)
        for n in loops:
            walks = isinstance(n.iter, (cst.Tuple, cst.List)) and bool(n.iter.elements) and all(
                isinstance(e, cst.Element) and element_test(e.value) for e in n.iter.elements)
            (masks if walks else others).add(n.target.value)
        return frozenset(masks - others)
    sure = walked(lambda e: looks_boolean(e, bool_names))
    return sure, walked(lambda e: looks_boolean(e, bool_names) or isinstance(e, cst.Name)
                        and e.value not in _CONSTANTS)


_CONSTANTS = frozenset({"None", "True", "False"})
