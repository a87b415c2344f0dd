"""Lists of Python numbers: `hist = []; hist.append(float(u.sum())); hist.append(hist[-1] * 2)`.

What: a local list every item of which is a Python number (its displays' items and appended
values are Python scalars, rules/pyscalars.py) has its item reads (`hist[-1]`, `hist[i]`) taken
for Python scalars of the items' kinds, and each appended value or display item that is not
already noted (a literal, `float(...)`, `int(...)`) becomes `npr_pyreturn(v, kind)`, so the call
returns the list's items as Python's floats and ints, as NumPy's program holds them. An item
that holds parameters' values (`hist = [dt]`, `hist.append(hist[-1] * n)`) is a Python number
when the caller passes them: `npr_pyreturn(v, 'passed', dt, n)`, as a returned `dt * 2` is
(rules/param_arithmetic.py); so is a returned read of one (`return hist[-1] * 2`, pyreturns.py).

Why: traced, a Python float is a weakly typed float64; `hist[-1] * 2` is a new value no note
reaches, which the call returned as np.float64 (fuzz_1a5f0e7c20), as it did `t2` appended after
`t2 = t * 2`. Python's rules for operators between such items (`hist[-1] / 0`: ZeroDivisionError)
follow from the reads being Python scalars (npr_pyop).

Which lists: a local bound only to list displays, in a function without nested functions or
lambdas, used only by `.append(v)`, reads of one item, the read-only methods and builtins
(`len`, `sum`, `min`, `max`, `sorted`, `pop`, `sort`, ...), NumPy functions, `for v in hist`, a
return (alone or in a returned display), a truth test, an argument of a module function whose
parameter is used only in those ways, never appended to (`_keep(hist)`; one that returns it, only
where the call's result is dropped). Any other use (passed to another function, aliased, an item
stored, `insert`, `extend`, `+=`) may put another kind of value in: such a list is left as it was
(its items NumPy's where np2ref made them so).

Exact or not: values are unchanged; which of Python's and NumPy's scalar types an item has.
"""

from __future__ import annotations

import types

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits
from ..syntax import target_subscripts, walk

_METHODS = frozenset({"append", "pop", "sort", "reverse", "clear", "index", "count", "copy"})
_READERS = frozenset({"len", "sum", "min", "max", "sorted", "list", "tuple", "print", "enumerate", "reversed",
                      "any", "all"})


def list_candidates(ctx) -> dict[str, tuple[list, list]]:
    """{name: (its display nodes, its appended values)} for each local list used only as the
    module docstring says; the items are classified by pyscalars' fixed point (settle)."""
    f = ctx.f
    bindings: dict[str, list] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append((target, value))
    names = {n for n, bs in bindings.items() if n not in f.params and all(
        isinstance(v, cst.List) and all(type(e) is cst.Element for e in v.elements) for _, v in bs)}
    if not names or any(isinstance(n, (cst.Lambda, cst.FunctionDef)) and n is not f.node for n in walk(f.node)):
        return {}
    appended: dict[str, list] = {n: [] for n in names}
    escaped = _escaped(f.node, names, ctx, appended, {id(t) for n in names for t, _ in bindings[n]})
    return {n: ([v for _, v in bindings[n]], appended[n]) for n in names - escaped}


def _escaped(root, names, ctx, appended, allowed) -> set[str]:
    """The `names` that `root` uses other than the module docstring allows (`allowed`: ids of
    Name nodes allowed already)."""
    stored = {id(s) for n in walk(root) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del))
              for s in target_subscripts(n.target)}  # (`hist[i] = v`, `hist[i] += v`, `del hist[i]`)
    discarded = {id(n.value) for n in walk(root) if type(n) is cst.Expr}  # calls whose result is dropped
    for node in walk(root):
        for name_node in _allowed_uses(node, names, ctx, appended, (stored, discarded)):
            allowed.add(id(name_node))
    return {n.value for n in walk(root) if isinstance(n, cst.Name) and n.value in names and id(n) not in allowed}


def holds_names(candidates: dict, names) -> bool:
    """Whether an item of a candidate list reads one of `names` (`hist = [dt]`, `hist.append(dt * 2)`)."""
    return any(type(n) is cst.Name and n.value in names for displays, values in candidates.values()
               for item in [*displays, *values] for n in walk(item))


def _allowed_uses(node, names, ctx, appended, marks) -> list:
    """The Name nodes of candidate lists that `node` uses in an allowed way (appended values
    recorded in `appended`; `marks`: the ids of stored subscripts and of calls whose result is
    dropped)."""
    stored, discarded = marks
    if isinstance(node, cst.Call):
        func, args = node.func, node.args
        if isinstance(func, cst.Attribute) and _named(func.value, names) and func.attr.value in _METHODS:
            if func.attr.value != "append":
                return [func.value]
            if len(args) == 1 and args[0].keyword is None and not args[0].star:
                appended[func.value.value].append(args[0].value)
                return [func.value]
            return []
        reader = isinstance(func, cst.Name) and func.value in _READERS and func.value not in ctx.f.roots or \
            (ctx.imports.qualify_numpy(func, frozenset(ctx.f.roots)) or "").startswith("numpy.")
        if not reader:
            return _passed_to_readers(node, names, ctx, id(node) in discarded)
        return [a.value for a in args if _named(a.value, names) and a.keyword is None and not a.star]
    if isinstance(node, cst.Subscript) and _named(node.value, names) and id(node) not in stored:
        return [node.value]
    if isinstance(node, (cst.For, cst.If, cst.While)):
        value = node.iter if isinstance(node, cst.For) else node.test
        return [value] if _named(value, names) else []
    if isinstance(node, cst.Return) and node.value is not None:
        return [v for v in _returned(node) if _named(v, names)]
    return []


def _returned(node: cst.Return) -> list:
    values = node.value.elements if isinstance(node.value, (cst.Tuple, cst.List)) else [node]
    return [v.value for v in values]


def _passed_to_readers(call: cst.Call, names, ctx, dropped: bool) -> list:
    """`_keep(hist)`: the candidate lists a call of a module function passes to parameters the
    callee uses only as this module allows a candidate list to be used, appending nothing (and,
    where it returns one, the call's result dropped): the callee puts nothing in them."""
    functions, func = getattr(ctx, "facts", None), call.func
    if not functions or type(func) is not cst.Name or func.value not in functions or func.value in ctx.f.roots \
            or func.value in ctx.f.params or any(a.star for a in call.args):
        return []
    callee = functions[func.value]
    params = callee.node.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    named = set(positional) | {p.name.value for p in params.kwonly_params}
    out = []
    for i, a in enumerate(call.args):
        param = a.keyword.value if a.keyword is not None else positional[i] if i < len(positional) else None
        if _named(a.value, names) and param in named and _only_read(callee, param, ctx, dropped):
            out.append(a.value)
    return out


def _only_read(callee, param, ctx, dropped: bool) -> bool:
    inner = types.SimpleNamespace(f=callee, imports=ctx.imports)  # (no `facts`: one call deep)
    appended = {param: []}
    if _escaped(callee.node.body, {param}, inner, appended, set()) or appended[param]:
        return False
    return dropped or not any(_named(v, {param}) for n in walk(callee.node.body) if type(n) is cst.Return
                              and n.value is not None for v in _returned(n))


def _named(expr, names) -> bool:
    return isinstance(expr, cst.Name) and expr.value in names


def settle(candidates: dict, classify, lists: dict, held=frozenset()) -> bool:
    """One round of the fixed point (rules/pyscalars.py _scan): each candidate's items' Scalar,
    the join of what its display items and appended values are; a list with an item that is no
    Python scalar, or holds a value other than the `held` ones (parameters never rebound, draws:
    a Python number when the caller passes one, which npr_pyreturn tells), is dropped. Whether
    `lists` changed."""
    new = {}
    for name, (displays, values) in candidates.items():
        if name not in lists:
            continue
        items = [e.value for d in displays for e in d.elements] + values
        kinds = [classify(v) for v in items]
        if any(k is None or not k.passed <= held for k in kinds):
            continue
        out = lists[name].__class__((), False)
        for k in kinds:
            out = out.join(k)
        new[name] = out
    changed = new != lists
    lists.clear()
    lists.update(new)
    return changed


def _noted(expr) -> bool:
    """A literal, or `float(...)` / `int(...)` (npr_float and npr_int note their results)."""
    while isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float)) or isinstance(expr, cst.Call) and isinstance(
        expr.func, cst.Name) and expr.func.value in ("float", "int")


def _note(ctx, original, updated):
    """`updated` in npr_pyreturn with the kind of `original`'s Python scalar, where not noted; of
    one that holds parameters' values (`hist = [dt]`), 'passed' and the parameters (a Python
    number when the caller passed them), or of a draw's, 'passed' alone (its weak type tells)."""
    k = ctx.py_scalars.classify(original)
    if k is None or not k.kinds or _noted(original):
        return updated
    if k.passed:
        params = () if any(p not in ctx.f.params for p in k.passed) else sorted(k.passed)
        return J.call(J.PYRETURN, updated, J.string("passed"), *map(cst.Name, params))
    return J.call(J.PYRETURN, updated, J.string(next(iter(k.kinds)) if len(k.kinds) == 1 else "any"))


@emits(cst.Call, order=19)
def emit_list_append(original: cst.Call, updated: cst.Call, ctx):
    """`hist.append(v)` on a list of Python numbers: `v` noted (npr_pyreturn); the call itself as
    rules/calls.py emits it."""
    func = original.func
    lists = ctx.py_scalars.lists if ctx.py_scalars.active else {}
    if not (isinstance(func, cst.Attribute) and func.attr.value == "append" and _named(func.value, lists)
            and len(original.args) == 1) or original in ctx.m.special_calls:
        return None
    value = _note(ctx, original.args[0].value, updated.args[0].value)
    if value is updated.args[0].value:
        return None
    from .calls import emit_call  # (calls imports the rules this module's callers import)
    return emit_call(original, updated.with_changes(args=[updated.args[0].with_changes(value=value)]), ctx)


@emits(cst.List, order=50)
def emit_list_display(original: cst.List, updated: cst.List, ctx):
    """`hist = [t * 2]` bound to a list of Python numbers: each item noted (npr_pyreturn)."""
    if not ctx.py_scalars.active or original not in ctx.py_scalars.displays:
        return None
    elements = [u.with_changes(value=_note(ctx, o.value, u.value)) for o, u in zip(original.elements, updated.elements)]
    if all(e.value is u.value for e, u in zip(elements, updated.elements)):
        return None
    return updated.with_changes(elements=elements)
