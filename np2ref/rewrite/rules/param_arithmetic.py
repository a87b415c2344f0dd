"""Returned arithmetic of parameters that can be Python numbers: `return dt * 2`, `return x, -dt`,
`return dt + nc` in `def step(u, dt, nc): u *= dt; ...`.

What: NumPy's program returns a Python float when the caller passes one for `dt`; traced, the
value is a weakly typed float64, which np2ref handed back as NumPy's float64. Such a return becomes
`npr_pyreturn(dt * 2, 'passed', dt)` (rules/pyreturns.py), which looks at what was passed: a Python
number stays one, an array or np.float64 stays NumPy's.

Which: only arithmetic (a binary or unary operator) whose names are all parameters never rebound
that the body uses only as numbers (never subscripted, never an attribute read, never iterated, never
passed to a call other than Python's number builtins or a local's `.append`, never written), in a
function whose array work is on its other parameters (one of them is used as an array). Without that,
`return a // b` is more often an array's arithmetic (tests/programs/division.py), and a function with
no array work at all (`def add(a, b): return a + b`) stays as written: it runs as written, Python's
types (np2ref.compile gives its entry python_scalars=True, compiled/compile.py).
"""

from __future__ import annotations

import libcst as cst

from ..syntax import walk
from ...analysis.collect import NUMPY_CONSTANTS

# calls that take a number as a number: passing a parameter to one says nothing of an array
_NUMBER_BUILTINS = frozenset({"float", "int", "abs", "round", "min", "max", "divmod", "pow", "complex", "bool"})


def array_params(f, facts=None, seen=frozenset()) -> frozenset[str]:
    """The parameters `f`'s body uses as arrays: mutated, subscripted, an attribute read
    (`u.shape`, `u.sum()`), iterated, or passed to a call other than a number builtin or a local's
    `.append` (`hist.append(dt)`), or a module function's (`facts`) parameter it uses so (`step(u,
    dt)`: u only, where step uses dt as a number)."""
    found = f.derived.get("array_params")
    if found is not None:
        return found
    if f.name in seen:  # (a recursion: taken for arrays)
        return frozenset(f.params)
    params, used = frozenset(f.params), set(f.mutated_params)
    local = {t.value for t, _ in f.bindings if isinstance(t, cst.Name)} | params
    for node in walk(f.node.body):
        kind = type(node)
        if (kind is cst.Subscript or kind is cst.Attribute) and type(node.value) is cst.Name:
            used.add(node.value.value)
        elif kind is cst.For and type(node.iter) is cst.Name:
            used.add(node.iter.value)
        elif kind is cst.Call and not (type(node.func) is cst.Name and node.func.value in _NUMBER_BUILTINS
                                       and node.func.value not in local) and not _appended(node, local - params):
            used.update(_passed_arrays(node, local, facts, seen | {f.name}))
    found = f.derived["array_params"] = frozenset(used) & params
    return found


def _passed_arrays(call: cst.Call, local, facts, seen) -> list[str]:
    """The names `call` passes where they may be used as arrays: every one, but for a module
    function called by name with plain positional arguments, those at its array parameters."""
    names = [a.value.value if type(a.value) is cst.Name else None for a in call.args]
    callee = facts.get(call.func.value) if facts and type(call.func) is cst.Name and call.func.value not in local \
        else None
    if callee is None or any(a.keyword is not None or a.star for a in call.args) or len(names) > len(callee.params):
        return [n for n in names if n is not None]
    arrays = array_params(callee, facts, seen)
    return [n for n, p in zip(names, callee.params) if n is not None and p in arrays]


def _appended(call: cst.Call, lists) -> bool:
    """`hist.append(dt)` on a local (`lists`): the value kept as it is, a number or an array, which
    says nothing of an array (fuzz_1313f13006: `return dt * 2` lost its Python float after it)."""
    func = call.func
    return type(func) is cst.Attribute and func.attr.value == "append" and type(func.value) is cst.Name \
        and func.value.value in lists


def scalar_arithmetic(ctx, expr, passed: frozenset) -> bool:
    """`dt * 2`, `-dt`, `dt + nc`: an operator on parameters never rebound (`passed`) that are used
    only as numbers, in a function with array work on another parameter (the module docstring)."""
    if type(expr) not in (cst.BinaryOperation, cst.UnaryOperation) or ctx.f.name in ctx.plain:
        return False
    arrays = array_params(ctx.f, getattr(ctx, "facts", None))
    used: set[str] = set()
    return bool(arrays) and _of_numbers(ctx, expr, passed - arrays, used) and bool(used)


def _of_numbers(ctx, expr, params: frozenset, used: set) -> bool:
    """Whether `expr` is operators on `params` (noted in `used`) and Python constants: literals,
    `math.pi`, a `from math import pi` name (`return counts, pi * h`: a Python float for NumPy)."""
    kind = type(expr)
    if kind is cst.BinaryOperation:
        return _of_numbers(ctx, expr.left, params, used) and _of_numbers(ctx, expr.right, params, used)
    if kind is cst.UnaryOperation:
        return _of_numbers(ctx, expr.expression, params, used)
    if kind is cst.Name and expr.value in params:
        used.add(expr.value)
        return True
    if kind in (cst.Integer, cst.Float):
        return True
    # (read while rules/pyscalars.py's scan runs: the classifier is not there yet)
    qual = ctx.imports.qualify(expr, frozenset(ctx.f.roots)) if kind in (cst.Name, cst.Attribute) else None
    return float_constant(qual)


MATH_CONSTANTS = frozenset({"pi", "e", "tau", "inf", "nan"})  # math's floats (`math.pi`, `from math import pi`)


def float_constant(qual: str | None) -> bool:
    """A qualified name that holds a Python float: `math.pi`, `np.inf` (`type(np.inf) is float`)."""
    if qual is None:
        return False
    module, _, name = qual.partition(".")
    return name in MATH_CONSTANTS if module == "math" else module == "numpy" and name in NUMPY_CONSTANTS


def returns_scalar_arithmetic(ctx, node: cst.Return, passed: frozenset) -> bool:
    """`return dt * 2`, `return x, -dt`: an item that is scalar_arithmetic."""
    value = node.value
    items = [e.value for e in value.elements] if type(value) is cst.Tuple else [value] if value is not None else []
    return any(scalar_arithmetic(ctx, item, passed) for item in items)


def divides_by_parameter(node, params) -> bool:
    """`1.0 / dt`, `n % k`, divmod(n, k): a division whose divisor holds a parameter."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _DIVIDE):
        right = node.right
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "divmod" \
            and len(node.args) == 2:
        right = node.args[1].value
    else:
        return False
    return any(isinstance(n, cst.Name) and n.value in params for n in walk(right))


_DIVIDE = (cst.Divide, cst.FloorDivide, cst.Modulo)
