"""OrderedFold: a loop that only adds into one `R[P]` as one chain of additions in NumPy's order
(rt/fold.py runs it; the default, exact mode: NumPy's bits).

What: a `for k in range(...)` loop that sum_reorder.py's proof takes (no carried names, a body of
`name = value` and `R[P] += value` / `-=`, P free of k and of the body's names, values that read
no array the loop writes nor one that may share its storage, pure calls only) with one `R[P] +=`.
Trip k then adds value(k), a function of k and of the state before the loop, into R[P]: NumPy's
result is `((R[P] + value(k0)) + value(k1)) + ...`. The reads of each trip that name k are made for
all trips at once (`_reads_k`, under vmap: a read is the same element either way), each trip's
value from its reads (`_trip_k`: the body's own operations, traced once) and the chain of
additions (`_fold_k`: R[P] read once, stored once):

    for k in range(K):                            def _reads_k(k):
        C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]  return (npr_get(A)[i, k], npr_get(A)[:i + 1, k])
                                            ->    def _trip_k(_read_k):
                                                      return alpha * _read_k[0] * _read_k[1]
                                                  def _fold_k(_trips_k):
                                                      npr_at(C)[i, :i + 1] = npr_fold(npr_get(C)[i, :i + 1], '+', _trips_k)
                                                  npr_fold_for(npr_range(K), _loop_k, _reads_k, _trip_k, _fold_k)

Exact: the same operations on the same values, added in the loop's order. `_loop_k` stays: the
loop runs where the fold cannot (rt/fold.py says when). Refused (the loop stays, `explain()` says
why): more than one `+=`, a read indexed by a name the body binds (`A[t]` after `t = k + 1`), an
index holding a call, the loop variable used other than in a read's index or as a value.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.nodes import run_visitor
from ..emit import jaxnames as J
from .sum_reorder import SumPlan, _mentions, sum_plan

_INDEX_CALLS = frozenset({J.GET, J.WINDOW})  # calls an index of a read may hold (a read, a window)


def fold_plan(loop: cst.For, var: str, facts) -> SumPlan | str:
    """sum_reorder.py's SumPlan for a loop with one accumulation, else why the loop stays."""
    sp = sum_plan(loop, var, facts)
    if isinstance(sp, str):
        return sp
    if len(sp.stores) != 1:
        return "more than one `R[index] += value` (each array's additions would interleave)"
    return sp


def fold_functions(plan: SumPlan, var: str, original: cst.For, stmts):
    """[`def _reads_k(k)`, `def _trip_k(_read_k)`, `def _fold_k(_trips_k)`] from the converted
    statements `stmts`, or why not (a str)."""
    if len(stmts) != len(original.body.body):
        return "a body the conversion split"
    reads = _Reads(var, plan.local, f"_read_{var}")
    trip_body = []
    for old, new in zip(original.body.body, stmts):
        x = new.body[0] if isinstance(new, cst.SimpleStatementLine) and len(new.body) == 1 else None
        if isinstance(old.body[0], cst.Assign):
            if not isinstance(x, cst.Assign):
                return "a binding the conversion changed"
            trip_body.append(new.with_changes(body=[x.with_changes(value=x.value.visit(reads))]))
            continue
        if not (isinstance(x, cst.AugAssign) and type(x.operator) is type(old.body[0].operator)
                and isinstance(x.target, cst.Subscript) and _is_call(x.target.value, J.STORE_PROXY)):
            return "a store the conversion changed"
        store, value = x, x.value.visit(reads)
        trip_body.append(cst.SimpleStatementLine([cst.Return(value)]))
    if reads.why or any(_mentions(s, {var}) for s in trip_body):
        return reads.why or "the loop variable used other than in a read or as a value"
    op = "+" if isinstance(store.operator, cst.AddAssign) else "-"
    target = store.target
    read_target = target.with_changes(value=target.value.with_changes(func=cst.Name(J.GET)))
    trips = cst.Name(f"_trips_{var}")
    fold_call = cst.Call(cst.Name(J.FOLD), [cst.Arg(read_target), cst.Arg(cst.SimpleString(repr(op))), cst.Arg(trips)])
    out = cst.Tuple([cst.Element(a, comma=cst.Comma() if len(reads.atoms) == 1 else cst.MaybeSentinel.DEFAULT)
                     for a in reads.atoms])
    return [_def(f"_reads_{var}", var, [cst.SimpleStatementLine([cst.Return(out)])]),
            _def(f"_trip_{var}", reads.param, trip_body),
            _def(f"_fold_{var}", trips.value,
                 [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(target)], fold_call)])])]


def _def(name, param, body):
    return cst.FunctionDef(cst.Name(name), cst.Parameters([cst.Param(cst.Name(param))]), cst.IndentedBlock(body))


def _is_call(e, name) -> bool:
    return isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == name


class _Reads(cst.CSTTransformer):
    """Each read whose index names the loop variable (and the variable itself as a value) becomes
    `_read_k[m]`, collected in `atoms` (the same read once); `why` when a read takes another form."""

    def __init__(self, var, local, param):
        self.var, self.local, self.param = var, set(local), param
        self.atoms, self.codes, self.why = [], {}, ""

    def _atom(self, node):
        code = cst.Module([]).code_for_node(node)
        if code not in self.codes:
            self.codes[code] = len(self.atoms)
            self.atoms.append(node)
        return cst.Subscript(cst.Name(self.param), [cst.SubscriptElement(cst.Index(cst.Integer(str(self.codes[code]))))])

    def visit_Subscript(self, node):
        return not _mentions(node, {self.var})  # a read of trip k: taken whole (leave_Subscript)

    def leave_Subscript(self, original, updated):
        if not _mentions(original, {self.var}):
            if _mentions(original, self.local):  # (a read in the chain's pass, per trip)
                self.why = self.why or "a read indexed by a name the body binds"
            return updated
        if not _read_of_array(original.value):
            self.why = self.why or "a subscript of something other than an array read"
            return updated
        if _mentions(original, self.local):
            self.why = self.why or "a read indexed by a name the body binds"
            return updated
        if not _index_calls_known(original.slice):
            self.why = self.why or "a read whose index holds a call"
            return updated
        return self._atom(original)

    def leave_Name(self, original, updated):
        return self._atom(original) if original.value == self.var else updated

    def leave_Attribute(self, original, updated):
        return updated.with_changes(attr=original.attr)  # `x.k` names no variable

    def leave_Arg(self, original, updated):
        return updated.with_changes(keyword=original.keyword)  # nor does `f(k=...)`


def _read_of_array(e) -> bool:
    """`A`, `npr_get(A)` (with keywords), or a subscript of one."""
    if isinstance(e, cst.Name):
        return True
    if isinstance(e, cst.Subscript):
        return _read_of_array(e.value)
    return _is_call(e, J.GET) and bool(e.args) and isinstance(e.args[0].value, cst.Name) and all(
        a.keyword is not None for a in e.args[1:])


def _index_calls_known(elements) -> bool:
    bad = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            if not (isinstance(node.func, cst.Name) and node.func.value in _INDEX_CALLS):
                bad.append(node)
    for e in elements:
        run_visitor(e, V())
    return not bad
