"""Returned Python scalars: `return n * 2`, `return float(x.max()), y`, `return best` after
`best = (i, i + 1)`, `return converged` of a True/False flag -> `npr_pyreturn(value, kind)`, so
the call returns Python's type (int, float, bool, complex), not a NumPy scalar, where NumPy's
program returns one (rules/pyscalars.py says which expressions are Python scalars).
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits
from ..syntax import walk
from .zero_d import arrays_returned
from .helper_kinds import through, Through
from .param_arithmetic import scalar_arithmetic
from .pyscalars import _bare, _held_value, DRAWN, entry_name, passed_params


def _return_facts(ctx):
    """ctx.py_scalars' tuple-valued and True/False names, found at the function's first return."""
    py = ctx.py_scalars
    if py.tuples is None:
        py.tuples = _tuple_names(ctx, py.classify)
        bindings = _name_bindings(ctx)
        py.bools = frozenset(n for n in bindings if n not in ctx.f.params and _bool_valued(bindings, cst.Name(n)))
    return py.tuples, py.bools


@emits(cst.Return, order=50)
def emit_return(original: cst.Return, updated: cst.Return, ctx):
    """A returned array name's load noted a 0-d array where it is one (rules/zero_d.py
    arrays_returned), then Python scalars' kinds."""
    wrapped = arrays_returned(original, updated, ctx)
    note_kinds(ctx, original)
    out = emit_python_scalar_return(original, wrapped, ctx)
    return out if out is not None else wrapped if wrapped is not updated else None


def emit_python_scalar_return(original: cst.Return, updated: cst.Return, ctx):
    """`return n * 2`, `return float(x.max()), y` (an item of a tuple, list or dict literal too)
    where the value is a Python int or float
    (traced when it comes from array data or a loop): `npr_pyreturn(n * 2, 'int')`, so the call returns Python's type, not a
    NumPy scalar; `npr_pyreturn(mid, 'passed')` where it holds a parameter's value (a bisection's
    `lo = mid`): Python's type when the caller passed a Python number (a weakly typed value)."""
    if not ctx.py_scalars.active or original.value is None:
        return None
    tuples, bools = _return_facts(ctx)
    if isinstance(original.value, cst.Name) and original.value.value in tuples:
        value = _tuple_items(ctx, tuples[original.value.value], updated.value)
        return None if value is updated.value else updated.with_changes(value=value)
    if isinstance(original.value, cst.Name) and original.value.value in bools:
        # `return True` in a loop on data (`_return_3 = _value_2`): a Python bool, not NumPy's
        return updated.with_changes(value=_pyreturn(updated.value, "bool"))
    if not _literal(original.value):
        kind = _python_kind(ctx, original.value)
        return updated.with_changes(value=_pyreturn(_bare(updated.value), kind)) if kind else None
    value = _returned_items(ctx, original.value, updated.value)
    return None if value is updated.value else updated.with_changes(value=value)


def note_kinds(ctx, original: cst.Return) -> None:
    """Note what this `return` of a tuple display gives item by item ('int', 'float' or None),
    for callers that unpack it (`road, passed = step(...)`: helper_kinds.callee_kinds); of another
    value, 'int' or 'float' where it is one (`n = count(hist)`), else None."""
    value = original.value
    kinds = None
    if isinstance(value, cst.Tuple) and _literal(value) and ctx.py_scalars.active:
        kinds = tuple(_int_or_float(_python_kind(ctx, e.value)) for e in value.elements)
    elif value is not None and not isinstance(value, cst.Tuple) and ctx.py_scalars.active:
        kinds = _int_or_float(_python_kind(ctx, value))
    if kinds is None and value is not None and (positions := through(ctx, value)):
        kinds = Through(positions)  # `return p` after `p *= 2`: the caller's Python number where it passes one
    ctx.returned_kinds.setdefault(ctx.f.name, []).append(kinds)


def _int_or_float(kind):
    return kind if isinstance(kind, str) and kind in ("int", "float") else None


def _literal(node) -> bool:
    """A tuple, list or dict display without starred items: its items are returned one by one."""
    return isinstance(node, (cst.Tuple, cst.List, cst.Dict)) and not any(
        isinstance(e, (cst.StarredElement, cst.StarredDictElement)) for e in node.elements)


def _tuple_items(ctx, items, updated):
    """`best` after `best = (i, i + 1)`, returned: item by item (`npr_pyreturn(best, 'items', ...)`),
    `updated` itself where no item is a Python scalar."""
    kinds = [k if k == "bool" else _scalar_kind(ctx, k, None) if k is not None else None for k in items]
    return J.call(J.PYRETURN, updated, J.string("items"), *map(_kind_arg, kinds)) if any(kinds) else updated


def _returned_items(ctx, original, updated):
    """`updated` with each Python scalar among the items of a returned display (nested ones
    too: `{"stats": {"n": len(b)}}`) in npr_pyreturn; `updated` itself when none is."""
    elements, changed = [], False
    for o, u in zip(original.elements, updated.elements):
        if _literal(o.value):
            value = _returned_items(ctx, o.value, u.value)
        elif type(o.value) is cst.Name and o.value.value in ctx.py_scalars.tuples:  # `return x, best`
            value = _tuple_items(ctx, ctx.py_scalars.tuples[o.value.value], u.value)
        else:
            kind = _python_kind(ctx, o.value)
            value = _pyreturn(u.value, kind) if kind else u.value
        changed |= value is not u.value
        elements.append(u.with_changes(value=value) if value is not u.value else u)
    return updated.with_changes(elements=elements) if changed else updated


def _pyreturn(value, kind):
    """npr_pyreturn(value, 'int'), or (`kind` ('passed', params)) npr_pyreturn(value, 'passed',
    *params): the parameters never rebound that it holds, a Python number each when the caller
    passed one (npr_pyreturn looks at them)."""
    if isinstance(kind, str):
        return J.call(J.PYRETURN, value, J.string(kind))
    return J.call(J.PYRETURN, value, J.string(kind[0]), *(cst.parse_expression(p) for p in kind[1]))


def _builtin_made(ctx, expr) -> str | None:
    """'bool' or 'complex' for `bool(...)`, `complex(...)` (of array data: a traced 0-d value, NumPy's
    program has Python's bool or complex), or a name every binding of which is one such call or
    True / False (a flag set under a test of the data, carried by a lax.cond: a traced bool)."""
    shadowed = ctx.py_scalars.classify.shadowed
    if isinstance(expr, cst.Name) and expr.value in ctx.py_scalars.names:
        return None  # an int or float name (`_scan`'s)
    values = [expr]
    if isinstance(expr, cst.Name):
        values = [v for t, v in ctx.f.bindings if isinstance(t, cst.Name) and t.value == expr.value]
    kinds = {_made_kind(v, shadowed) for v in values}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


def _made_kind(value, shadowed) -> str | None:
    if isinstance(value, cst.Name) and value.value in ("True", "False"):
        return "bool"  # `converged = False`, then `converged = True` under a test of the data
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("bool", "complex") \
            and value.func.value not in shadowed and value.args and not any(a.star for a in value.args):
        return value.func.value
    return None


def _kind_arg(kind):
    """A kind as npr_pyreturn(v, 'items', ...) takes it for each item: None, 'int', or
    ('passed', *params)."""
    if kind is None or isinstance(kind, str):
        return cst.Name("None") if kind is None else J.string(kind)
    return cst.Tuple([cst.Element(J.string(kind[0])), *(cst.Element(cst.Name(p)) for p in kind[1])])


def _python_kind(ctx, expr):
    """'int' or 'float': a Python scalar of that one kind; 'any': an int or a float
    (`x.item()`), which the traced value's dtype tells apart; ('passed', params): one that holds
    parameters' values (a Python number when the caller passed them: npr_pyreturn looks at the
    parameters never rebound, `params`, and at the traced value)."""
    made = _builtin_made(ctx, expr)
    if made is not None:
        return made
    return _scalar_kind(ctx, ctx.py_scalars.classify(expr), expr)


def _scalar_kind(ctx, k, expr):
    """_python_kind of what is known of an expression (`expr` None: an item of a tuple-valued
    name, bound in the function)."""
    if k is not None and k.passed:  # only a name bound in the function (`return t` after `t = t0`,
        # `t += h`), or an expression of one of one kind (`return crc & 0xFFFF`, an int): an
        # expression of parameters (`x + 2 * y` after `x, y = a, b`) is more often an array's arithmetic
        items = ctx.py_scalars.items  # (`v[0] * 2` of `v = (dt, 1.5)`: an item's, pytuples.py)
        names = ctx.py_scalars.names.keys() | items.keys()
        params = passed_params(ctx.f)  # `dt * 2` of the parameters themselves (not of locals bound to them)
        arithmetic = k.passed <= params and scalar_arithmetic(ctx, expr, params)  # (param_arithmetic.py)
        if expr is not None and k.passed != {DRAWN} and not arithmetic and not (
                type(expr) in (cst.Name, cst.Subscript) and _name_of(expr) in names or any(
                isinstance(n, cst.Name) and (n.value in items or n.value in names and len(k.kinds) == 1)
                for n in walk(expr))) \
                and not _reads_number_list(ctx, expr):
            # (draws and list items alone, `ks[0] * 2`: their weak type tells, npr_pyreturn; parameters never
            # rebound, `dt * 2`, and a local list's items, `hist[-1] * 2` after `hist = [dt]`: npr_pyreturn
            # looks at what was passed)
            return None
        known = passed_params(ctx.f) | {p for p in k.passed if p != DRAWN and _held_value(ctx, p)}
        # a parameter the body rebinds (`it += 1` in a `while`, whose carry is strongly typed):
        # its value on entry, which tells whether the caller passed a Python number
        rebound = {p for p in k.passed - known if p in ctx.f.params}
        if DRAWN in k.passed or k.passed > known | rebound:  # (a draw: its weak type tells)
            return "passed", ()
        ctx.py_scalars.entries.update(rebound)
        return "passed", tuple(sorted(entry_name(p) if p in rebound else p for p in k.passed))
    if k is None:
        return None
    return next(iter(k.kinds)) if len(k.kinds) == 1 else "any"


def _name_of(expr):
    """`v` of `v` or of `v[k]`."""
    return expr.value if type(expr) is cst.Name else expr.value.value if type(expr.value) is cst.Name else None


def _reads_number_list(ctx, expr) -> bool:
    """Whether `expr` reads an item of a local list of Python numbers (rules/pylists.py)."""
    lists = ctx.py_scalars.lists
    return any(type(n) is cst.Subscript and type(n.value) is cst.Name and n.value.value in lists for n in walk(expr))


def _tuple_names(ctx, classify) -> dict[str, tuple]:
    """The locals every binding of which is a tuple display of one width (`best = (0, 0)` ...
    `best = (i, i + 1)`, `_return_5 = x_new, k + 1`): per item, the join of what the items are
    (None where one of them is no Python scalar). A loop or branch on array data carries each
    item traced; returned, each Python scalar item is Python's type again (npr_pyreturn)."""
    bindings = _name_bindings(ctx)
    out = {}
    for name, values in bindings.items():
        if name in ctx.f.params or not all(isinstance(v, cst.Tuple) and _literal(v) for v in values) \
                or len({len(v.elements) for v in values}) != 1:
            continue
        items = []
        for column in zip(*(v.elements for v in values)):
            if all(_bool_valued(bindings, e.value) for e in column):
                items.append("bool")  # `return x, it + 1, True` ... `return x, maxit, False`
                continue
            kinds = [classify(e.value) for e in column]
            item = None if None in kinds else kinds[0]
            for k in kinds[1:] if item is not None else ():
                item = item.join(k)
            if item is not None and item.passed and not any(
                    _scalar_kind(ctx, k, e.value) for k, e in zip(kinds, column)):
                item = None  # only parameters' values (`return x, maxiter`): as _python_kind has it
            items.append(item)
        if any(i is not None for i in items):
            out[name] = tuple(items)
    return out


def _name_bindings(ctx) -> dict[str, list]:
    """name -> the values bound to it (None for `op=`)."""
    bindings: dict[str, list] = {}
    for target, value in ctx.f.bindings:
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append(value)
    return bindings


def _bool_valued(bindings: dict, expr, depth=2) -> bool:
    """`True`/`False`, or a local every binding of which is one (`_value_3 = True`, as
    frontend/loop_returns.py stores a returned item)."""
    if not isinstance(expr, cst.Name):
        return False
    if expr.value in ("True", "False"):
        return True
    values = bindings.get(expr.value)
    return bool(values) and depth > 0 and all(_bool_valued(bindings, v, depth - 1) for v in values)
