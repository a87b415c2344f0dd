"""ScalarFold: a loop whose only carried value is one accumulator `s`, as every trip's value
computed at once and then the chain of the loop's own steps in NumPy's order (rt/fold.py runs it,
npr_fold_for with a carried value; exact: NumPy's bits).

What: a `for k in range(...)` loop whose body is `name = value` bindings (each name once, not k)
and one accumulation of the carried name s: `s += v`, `s -= v`, `s *= v`, `s = s op v`
or `s = v op s` (op one of + - *; not `/`, which XLA's simplifier folds in pairs), `s = np.maximum(s, v)` (np.minimum, np.fmax, np.fmin;
either order; not Python's max and min, whose result's type is the one of the operand picked). No other statement reads s, v does not read s, the body writes no array and
calls only NumPy's pure functions (rewrite/lanes.py's list): trip k's v is then a function of k
and of the state before the loop, and NumPy's result is `step(...step(step(s, v(k0)), v(k1))...)`:

    s = 0.0                                    def _reads_i(i):
    for i in range(n):                             return (npr_get(a)[i, i],)
        s += np.tanh(a[i, i])             ->   def _trip_i(_read_i):
                                                   return npr_np_tanh(_read_i[0])
                                               def _step_i(s, _value_i):
                                                   s += _value_i
                                                   return s
                                               s = npr_fold_for(npr_range(n), _loop_i, _reads_i, _trip_i, _step_i, s)

Exact: the trip's own operations (one vector call of tanh instead of n scalar ones: elementwise,
the same values) and the step's own operation, applied in the loop's order. `_loop_i` stays: the
loop runs where the fold cannot (rt/fold.py). Refused (the loop stays, `explain()` says why): a
second statement that reads s, a value that reads s, a store, an impure call, a read indexed by a
name the body binds, a value that reads nothing of trip k, `s = s + a - b` (two steps).
"""

from __future__ import annotations

import libcst as cst

from ..analysis.nodes import run_visitor
from ..emit import jaxnames as J
from .lanes import _Accesses
from .ordered_fold import _Reads, _def
from .sum_reorder import _mentions

# (not `/`: in the chain's unrolled pass XLA takes `(s / a) / b` as `s / (a * b)`, one rounding)
_STEP_OPS = (cst.Add, cst.Subtract, cst.Multiply)
_AUG_OPS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign)
_PICKS = frozenset({"np.maximum", "np.minimum", "np.fmax", "np.fmin",
                    "numpy.maximum", "numpy.minimum", "numpy.fmax", "numpy.fmin"})


def scalar_fold_plan(loop: cst.For, var: str, acc: str, facts) -> int | str:
    """The position of the accumulation of `acc` in the loop's body, else why the loop stays."""
    local, at = set(), None
    for pos, s in enumerate(loop.body.body):
        x = s.body[0] if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 else None
        value = _step_value(x, acc)
        if value is not None:
            if at is not None:
                return f"`{acc}` accumulated twice"
            at = pos
        elif isinstance(x, cst.Assign) and len(x.targets) == 1 and isinstance(x.targets[0].target, cst.Name):
            name = x.targets[0].target.value
            if name == acc:
                return f"`{acc}` bound other than by one step (`{acc} += value`, `{acc} = {acc} * value`, np.maximum)"
            if name == var or name in local or name in facts.ref_names:
                return f"`{name}` bound twice, or an array the function writes"
            local.add(name)
            value = x.value
        else:
            return f"a statement other than `name = value` or one step of `{acc}` (`{acc} += value`)"
        if _mentions(value, {acc}):
            return f"a value that reads `{acc}` (a dependence beyond the chain)"
        found = _Accesses(set())
        run_visitor(value, found)
        if found.why or _branches(value):  # (a read in a branch not taken: every trip's reads are made)
            return found.why or "a value with a branch (`a if c else b`, `and`, `or`)"
    return f"no step of `{acc}`" if at is None else at


def _branches(e) -> bool:
    found = []

    class V(cst.CSTVisitor):
        def visit_IfExp(self, node):
            found.append(node)

        def visit_BooleanOperation(self, node):
            found.append(node)
    run_visitor(e, V())
    return bool(found)


def _step_value(x, acc):
    """The value v of an accumulation of `acc` (`acc += v`, `acc = acc - v`, `acc = np.fmax(v, acc)`),
    else None."""
    if isinstance(x, cst.AugAssign) and isinstance(x.operator, _AUG_OPS) and _is(x.target, acc):
        return x.value
    if not (isinstance(x, cst.Assign) and len(x.targets) == 1 and _is(x.targets[0].target, acc)):
        return None
    e = x.value
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, _STEP_OPS):
        return _other((e.left, e.right), acc)
    if isinstance(e, cst.Call) and _dotted(e.func) in _PICKS and len(e.args) == 2 and \
            all(a.keyword is None and not a.star for a in e.args):
        return _other([a.value for a in e.args], acc)
    return None


def _other(pair, acc):
    """Of two operands, the one that is not the bare name `acc`, when the other is."""
    a, b = pair
    return b if _is(a, acc) and not _is(b, acc) else a if _is(b, acc) and not _is(a, acc) else None


def _is(e, name) -> bool:
    return isinstance(e, cst.Name) and e.value == name and not e.lpar


def _dotted(e) -> str:
    if isinstance(e, cst.Name):
        return e.value
    if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name):
        return f"{e.value.value}.{e.attr.value}"
    return ""


def scalar_fold_functions(at: int, var: str, acc: str, original: cst.For, stmts):
    """[`def _reads_k(k)`, `def _trip_k(_read_k)`, `def _step_k(acc, _value_k)`] from the converted
    statements `stmts`, or why not (a str)."""
    if len(stmts) != len(original.body.body):
        return "a body the conversion split"
    local = {s.body[0].targets[0].target.value for p, s in enumerate(original.body.body) if p != at}
    reads = _Reads(var, local, f"_read_{var}")
    trip_body, step = [], None
    for pos, new in enumerate(stmts):
        x = new.body[0] if isinstance(new, cst.SimpleStatementLine) and len(new.body) == 1 else None
        if pos != at:
            if not isinstance(x, cst.Assign):
                return "a binding the conversion changed"
            trip_body.append(new.with_changes(body=[x.with_changes(value=x.value.visit(reads))]))
            continue
        value, step = _converted_step(x, acc, f"_value_{var}")
        if step is None:
            return f"a step of `{acc}` the conversion changed (`{acc}` may hold an array)"
        trip_body.append(cst.SimpleStatementLine([cst.Return(value.visit(reads))]))
    if reads.why or any(_mentions(s, {var}) for s in trip_body):
        return reads.why or "the loop variable used other than in a read or as a value"
    if not reads.atoms:
        return "a value that reads nothing of its trip"
    out = cst.Tuple([cst.Element(a, comma=cst.Comma() if len(reads.atoms) == 1 else cst.MaybeSentinel.DEFAULT)
                     for a in reads.atoms])
    step_def = _def(f"_step_{var}", acc, [step, cst.SimpleStatementLine([cst.Return(cst.Name(acc))])])
    step_def = step_def.with_changes(params=cst.Parameters([cst.Param(cst.Name(acc)), cst.Param(cst.Name(f"_value_{var}"))]))
    return [_def(f"_reads_{var}", var, [cst.SimpleStatementLine([cst.Return(out)])]),
            _def(f"_trip_{var}", reads.param, trip_body), step_def]


def _converted_step(x, acc, param):
    """(v, the statement with v replaced by `param`) of a converted step of `acc`, or (None, None)
    where the conversion wrote it otherwise (`npr_iop(s, '+', v)` without `maybe_scalar=True`: s
    may be the caller's array, written in place)."""
    call = x.value if isinstance(x, cst.Assign) and isinstance(x.value, cst.Call) else None
    if call is None:
        value = _step_value(x, acc)
    elif _dotted(call.func) == J.IOP:
        value = call.args[2].value if len(call.args) == 4 and _is(call.args[0].value, acc) and \
            _keyword_true(call.args[3], "maybe_scalar") else None
    else:
        value = _other([a.value for a in call.args], acc) if len(call.args) == 2 and all(
            a.keyword is None and not a.star for a in call.args) and _picked(call.func) else None
    if value is None:
        return None, None
    swapped = x.with_changes(value=cst.Name(param)) if isinstance(x, cst.AugAssign) else \
        x.with_changes(value=x.value.deep_replace(value, cst.Name(param)))
    return value, cst.SimpleStatementLine([swapped])


def _keyword_true(arg, name) -> bool:
    return arg.keyword is not None and arg.keyword.value == name and _is(arg.value, "True")


def _picked(func) -> bool:
    """A converted pick (`npr_max`, `npr_np_maximum`, ...: rt's names of _PICKS)."""
    name = _dotted(func)
    return name in {f"npr_np_{p.split('.')[-1]}" for p in _PICKS}
