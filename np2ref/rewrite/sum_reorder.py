"""A loop whose only carried dependence is a `+=` accumulation, summed in another order
(`np2ref.compile(fn, sums="reorder")`; rt/sum_reorder.py runs it). Off by default: NOT NumPy's bits.

What: a `for k in range(...)` loop (no carried names, no break) whose body is only
`name = value` (a name bound once, not k) and `R[P] += value` / `R[P] -= value` (R an array
the function writes, each R once, P free of k and of the body's names, of calls and subscripts),
whose values read no array the loop writes nor a name that may share storage with one
(analysis/aliases.py), and call only NumPy's pure functions (rewrite/lanes.py's list). Then each
iteration's values are functions of k and of the state before the loop, and the loop adds
`sum over k of value(k)` into each R[P], term by term in Python's order. Reordered, that sum is
one contraction over k: each value is split into signed products (`a * b - c * d`; a
parenthesised `+` or `-` stays one factor), each product's factors into those that change with
k (name k or a body name) and the others, which multiply the sum (`alpha * A[i, k] * A[:i + 1,
k]` is `alpha * sum_k A[i, k] * A[:i + 1, k]`):

    for k in range(K):                          def _terms_k(k):
        C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]  return ((npr_get(A)[i, k], npr_get(A)[:i + 1, k]),)
                                        ->      def _sums_k(_sum_k):
                                                    npr_at(C)[i, :i + 1] += alpha * _sum_k[0]
                                                npr_sum_for(npr_range(K), _loop_k, _terms_k, _sums_k)

Not exact: the same terms summed in another order (docs/semantics.md, "Reordered sums").
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses

import libcst as cst

from .lanes import _Accesses, _names
from ..analysis.nodes import run_visitor
from ..policy import SUMS as MODES

SUMS = contextvars.ContextVar("np2ref_sums", default="exact")
_ACCUMULATE = (cst.AddAssign, cst.SubtractAssign)


@contextlib.contextmanager
def sums_mode(mode: str):
    """Within the block, conversions write the reordered form of accumulation loops
    (np2ref.compile's `sums="reorder"`); other conversions are unchanged."""
    if mode not in MODES:
        raise ValueError(f"sums must be 'exact' or 'reorder', not {mode!r}")
    token = SUMS.set(mode)
    try:
        yield
    finally:
        SUMS.reset(token)


@dataclasses.dataclass(frozen=True)
class SumPlan:
    stores: tuple[str, ...]  # the arrays accumulated into, in the body's order
    local: frozenset         # the names the body binds


def sum_plan(loop: cst.For, var: str, facts) -> SumPlan | str:
    """A SumPlan when the loop only accumulates (module docstring), else why not."""
    stores, local, values = [], set(), []
    for s in loop.body.body:
        x = s.body[0] if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 else None
        if isinstance(x, cst.Assign) and len(x.targets) == 1 and isinstance(x.targets[0].target, cst.Name):
            name = x.targets[0].target.value
            if name == var or name in local or name in facts.ref_names:
                return f"`{name}` bound twice, or an array the function writes"
            local.add(name)
        elif isinstance(x, cst.AugAssign) and isinstance(x.operator, _ACCUMULATE) and isinstance(x.target, cst.Subscript) \
                and isinstance(x.target.value, cst.Name):
            array = x.target.value.value
            if array not in facts.ref_names or array in local or array in stores:
                return f"`{array}[...] += ` on a name that is not an array, or twice"
            if not _fixed_index(x.target.slice, local | {var}):
                return f"`{array}[...]` indexed by the loop variable, a name the body binds, a call or a subscript"
            stores.append(array)
        else:
            return "a statement other than `name = value` or `R[index] += value`"
        values.append(x.value)
    if not stores:
        return "no `R[index] += value` to reorder"
    found = _Accesses(set(stores))
    for v in values:
        run_visitor(v, found)
    if found.why or any(found.slices.values()):
        return found.why or "a value reads an array the loop adds into (a dependence beyond the sum)"
    for name in found.reads - set(stores) - local - {var}:
        if any(facts.roots.get(name, frozenset()) & facts.roots.get(w, frozenset({"?"})) for w in stores):
            return f"`{name}` may share memory with an array the loop adds into"
    if any(not facts.roots.get(w) for w in stores):
        return "an array whose storage is unknown"
    return SumPlan(tuple(stores), frozenset(local))


def _fixed_index(elements, moving) -> bool:
    for e in elements:
        parts = [p for p in (e.slice.lower, e.slice.upper, e.slice.step) if p is not None] \
            if isinstance(e.slice, cst.Slice) else [e.slice.value]
        for p in parts:
            names = _names(p)
            if names is None or names & moving:
                return False
    return True


def reorder_functions(plan: SumPlan, var: str, original: cst.For, stmts):
    """(`def _terms_k(k)`, `def _sums_k(_sum_k)`) from the converted statements `stmts`, or None
    when a converted store is not `target += value` (the loop then stays npr_for)."""
    if len(stmts) != len(original.body.body):
        return None
    moving = set(plan.local) | {var}
    param = cst.Name(f"_sum_{var}")
    terms_body, sums_body, factors = [], [], []
    for old, new in zip(original.body.body, stmts):
        if isinstance(old.body[0], cst.Assign):
            terms_body.append(new)
            continue
        x = new.body[0] if isinstance(new, cst.SimpleStatementLine) and len(new.body) == 1 else None
        if not (isinstance(x, cst.AugAssign) and type(x.operator) is type(old.body[0].operator)):
            return None
        value = None
        for sign, product, fs in _products(x.value):
            varying = [f for f in fs if _mentions(f, moving)]
            consts = [f for f in fs if not _mentions(f, moving)] if varying else []
            term = cst.Subscript(param, [cst.SubscriptElement(cst.Index(cst.Integer(str(len(factors)))))])
            factors.append(varying or [product])  # (a product the same in every trip: summed as one)
            for c in reversed(consts):  # alpha * sum_k (...): the factors that stay multiply the sum
                term = cst.BinaryOperation(_paren(c), cst.Multiply(), term)
            if value is None:
                value = term if sign > 0 else cst.UnaryOperation(cst.Minus(), term)
            else:
                value = cst.BinaryOperation(value, cst.Add() if sign > 0 else cst.Subtract(), term)
        sums_body.append(new.with_changes(body=[x.with_changes(value=value)]))
    out = cst.Tuple([cst.Element(_tuple(fs)) for fs in factors]) if len(factors) > 1 else _tuple([_tuple(factors[0])])
    terms = cst.FunctionDef(cst.Name(f"_terms_{var}"), cst.Parameters([cst.Param(cst.Name(var))]),
                            cst.IndentedBlock([*terms_body, cst.SimpleStatementLine([cst.Return(out)])]))
    sums = cst.FunctionDef(cst.Name(f"_sums_{var}"), cst.Parameters([cst.Param(param)]), cst.IndentedBlock(sums_body))
    return terms, sums


def _tuple(values):
    items = [cst.Element(v) for v in values]
    if len(items) == 1:
        items[0] = items[0].with_changes(comma=cst.Comma())
    return cst.Tuple(items)


def _products(e, sign=1):
    """[(sign, product, [factors])] of a sum of products; a parenthesised sum is one factor."""
    if _is_sum(e) and not e.lpar:  # (Python's `a - b + c` is `(a - b) + c`: a right operand is no bare sum)
        right = -sign if isinstance(e.operator, cst.Subtract) else sign
        return _products(e.left, sign) + [(right, e.right, _factors(e.right))]
    return [(sign, e, _factors(e))]


def _is_sum(e) -> bool:
    return isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Add, cst.Subtract))


def _factors(e):
    """The factors of a product `a * b * (c * d)`; any other expression is one factor."""
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Multiply):
        return _factors(e.left) + _factors(e.right)
    return [e]


def _paren(e):
    if isinstance(e, (cst.Name, cst.Integer, cst.Float, cst.Attribute, cst.Subscript, cst.Call)) or e.lpar:
        return e
    return e.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _mentions(e, names) -> bool:
    found = []

    class V(cst.CSTVisitor):
        def visit_Name(self, node):
            if node.value in names:
                found.append(node.value)
    run_visitor(e, V())
    return bool(found)
