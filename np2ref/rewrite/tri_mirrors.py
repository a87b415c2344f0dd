"""Symmetric results filled one row and one column per iteration: the outer loop of covariance and
correlation as one vectorised operation (issue 39).

    for i in range(m):                                  for i in range(m):
        for j in range(i, m):                               cov[i:m, i] = cov[i, i:m] = d[:, i] @ d[:, i:m]
            cov[i, j] = (d[:, i] * d[:, j]).sum()
            cov[j, i] = cov[i, j]

Iteration i writes row i from column i + c on (c >= 0) and, by a copy of that row part, column i
from row i + c on. The slot proof (rewrite/lanes.py) gives each iteration one element or block;
this one takes the copies out first and proves the rest: then each iteration owns the row R[i, :]
and touches it only at columns >= i (an index `i + c`, a slice `i + c:`, or an inner loop's
variable whose range starts at `i + c`, c >= 0 a literal). Why that is exact as lanes over the rows
followed by one copy of the upper part into the lower part (npr_vfor's `tri=`):

- a copy of iteration i' writes R[p, i'] with p >= i' + c; a row access of iteration i is R[i, q]
  with q >= i. They meet only where p = i and q = i' >= i >= i' + c, so c = 0 and i = i' = p = q:
  the diagonal element of one iteration, which its copy copies onto itself. No iteration reads or
  writes what another iteration's copy writes, so every lane reads the array as the loop left it;
- each copy reads R[i', p] (iteration i''s own row part), final when the copy runs: the copy is
  the last thing the iteration does to R (the copies end the inner loop whose body touches R only
  at R[i, j], and no statement after that loop writes R; a chained or copy statement ends the
  body), and no other iteration writes row i'. So the copies, made after all lanes in any order,
  write what the loop wrote.

Forms: an inner `for j in range(i + c, stop)` (stop free of i; no step) whose body ends in
`R[j, i] = R[i, j]`; a last statement `R[i + c:hi, i] = R[i, i + c:hi] = v` (either target
first: both store v) or `R[i + c:hi, i] = R[i, i + c:hi]` (hi the same in both, free of i). R must
be square (npr_vfor checks it: else the loop). Anything else keeps the slot proof's verdict.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from .lane_reads import code, is_name
from .mirrors import trailing_mirrors


@dataclasses.dataclass(frozen=True)
class TriMirror:
    array: str
    c: int  # the row part starts at column i + c, the column part at row i + c
    stop: str | None  # the code of the part's end (None: the axis' end)
    kind: str  # "range": range(i + c, stop)'s meaning; "slice": a slice's (negative counts from the end)
    form: str  # "inner" (copies end an inner loop), "chain" (`R[..] = R[..] = v`), "copy"
    inner: str = ""  # the inner loop's variable (form "inner")


def split_mirrors(loop: cst.For, var: str):
    """(the loop without its copies, [TriMirror]) when its body copies a row part into a column
    part in one of the forms above, else None. The rest is the caller's to prove (lane_plan, then
    upper_rows)."""
    body, found = list(loop.body.body), []
    for k, s in enumerate(body):
        inner = _inner_mirrors(s, var)
        if inner is not None:
            stripped, tm = inner
            if any(_writes(t, tm.array) for t in body[k + 1:]):
                return None  # a later write of R could change a row part after its copy
            body[k], found = stripped, found + [tm]
    if body:
        last = _last_statement(body[-1], var)
        if last is not None:
            stripped, tm = last
            body = body[:-1] + ([stripped] if stripped is not None else [])
            found.append(tm)
    if not found or len({t.array for t in found}) != len(found) or not body:
        return None
    return loop.with_changes(body=loop.body.with_changes(body=body)), found


def _inner_mirrors(s, var):
    if not (isinstance(s, cst.For) and isinstance(s.target, cst.Name) and s.orelse is None):
        return None
    j, bounds = s.target.value, _range_from(s.iter, var)
    mirrors = trailing_mirrors(s.body.body, j)
    if bounds is None or len(mirrors) != 1 or mirrors[0][1] != var:
        return None
    rest = s.body.body[:-1]
    if not rest or not _only_own_element(rest, mirrors[0][0], var, j):
        return None
    c, stop = bounds
    return s.with_changes(body=s.body.with_changes(body=rest)), TriMirror(mirrors[0][0], c, stop, "range", "inner", j)


def _range_from(it, var):
    """(c, code of stop) of `range(var + c, stop)`, c >= 0, stop free of var; else None."""
    if not (isinstance(it, cst.Call) and is_name(it.func, "range") and len(it.args) == 2
            and all(a.keyword is None and not a.star for a in it.args)):
        return None
    c = plus(it.args[0].value, var)
    stop = it.args[1].value
    if c is None or c < 0 or var in _names(stop):
        return None
    return c, cst.Module([]).code_for_node(stop)


def _only_own_element(stmts, array, var, j) -> bool:
    """Whether stmts touch `array` only as `array[var, j]` (so a later inner iteration never
    changes a row element an earlier one copied)."""
    ok = [True]

    class V(cst.CSTVisitor):
        def visit_Subscript(self, node):
            if is_name(node.value, array):
                ok[0] = ok[0] and code(node.slice) == f"{var}, {j}" and len(node.slice) == 2
                return False
            return True

        def visit_Name(self, node):
            if node.value == array:
                ok[0] = False
    for s in stmts:
        s.visit(V())
    return ok[0]


def _last_statement(s, var):
    """(the statement without its column part, TriMirror) of a chained `R[lo:hi, var] = R[var,
    lo:hi] = v` or a copy `R[lo:hi, var] = R[var, lo:hi]`, else None."""
    if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign)):
        return None
    assign = s.body[0]
    targets = [t.target for t in assign.targets]
    if len(targets) == 2:
        parts = [_part(t, var) for t in targets]
        if None in parts or {p[1] for p in parts} != {"row", "column"} or parts[0][0] != parts[1][0] \
                or parts[0][2:] != parts[1][2:]:
            return None
        row = targets[[p[1] for p in parts].index("row")]
        kept = s.with_changes(body=[assign.with_changes(targets=[cst.AssignTarget(row)])])
        array, _, c, stop = parts[0]
        return kept, TriMirror(array, c, stop, "slice", "chain")
    column, row = _part(targets[0], var), _part(assign.value, var)
    if len(targets) != 1 or column is None or row is None or column[1] != "column" or row[1] != "row" \
            or column[0] != row[0] or column[2:] != row[2:]:
        return None
    return None, TriMirror(column[0], column[2], column[3], "slice", "copy")


def _part(expr, var):
    """(R, "row" | "column", c, stop code) of `R[var, var + c:stop]` / `R[var + c:stop, var]`."""
    if not (isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and len(expr.slice) == 2):
        return None
    first, second = (e.slice for e in expr.slice)
    if isinstance(first, cst.Index) and is_name(first.value, var) and isinstance(second, cst.Slice):
        side, cut = "row", second
    elif isinstance(second, cst.Index) and is_name(second.value, var) and isinstance(first, cst.Slice):
        side, cut = "column", first
    else:
        return None
    c = plus(cut.lower, var) if cut.lower is not None else None
    if c is None or c < 0 or cut.step is not None or (cut.upper is not None and var in _names(cut.upper)):
        return None
    stop = None if cut.upper is None else cst.Module([]).code_for_node(cut.upper)
    return expr.value.value, side, c, stop


def upper_rows(loop: cst.For, var: str, array: str) -> str:
    """Why some access to `array` in loop's body is not in row var at a column >= var ("" when
    all are): the owned row part of the module docstring."""
    why = [""]
    starts = {}  # the variables of the loops around a node -> whether the range starts at var + c, c >= 0

    class V(cst.CSTVisitor):
        def visit_For(self, node):
            if isinstance(node.target, cst.Name):
                args = node.iter.args if isinstance(node.iter, cst.Call) and is_name(node.iter.func, "range") else ()
                step_ok = len(args) < 3 or isinstance(args[2].value, cst.Integer) and int(args[2].value.value) > 0
                starts.setdefault(node.target.value, []).append(len(args) >= 2 and step_ok and _from(args[0].value, var))

        def leave_For(self, node):  # (after its loop, a variable may hold an earlier loop's value)
            if isinstance(node.target, cst.Name):
                starts[node.target.value].pop()

        def visit_Subscript(self, node):
            if is_name(node.value, array):
                if not _upper(list(node.slice), var, starts):
                    why[0] = why[0] or f"`{array}[{code(node.slice)}]` is not in row {var} at a column >= {var}"
                return False
            return True
    loop.body.visit(V())
    return why[0]


def _upper(elements, var, starts) -> bool:
    if len(elements) != 2 or not isinstance(elements[0].slice, cst.Index) or not is_name(elements[0].slice.value, var):
        return False
    s = elements[1].slice
    if isinstance(s, cst.Slice):
        return s.step is None and s.lower is not None and _from(s.lower, var)
    if s.star:
        return False
    v = s.value
    if _from(v, var):
        return True
    name = v.value if isinstance(v, cst.Name) else v.left.value if isinstance(v, cst.BinaryOperation) \
        and isinstance(v.left, cst.Name) and isinstance(v.operator, cst.Add) and isinstance(v.right, cst.Integer) else None
    return bool(name is not None and starts.get(name) and starts[name][-1])


def _from(expr, var) -> bool:
    """Whether expr is `var + c` with c >= 0 a literal."""
    c = plus(expr, var)
    return c is not None and c >= 0


def plus(expr, name):
    """c when expr is `name + c` / `name - c` / `name` (c an integer literal), else None."""
    if is_name(expr, name):
        return 0
    if isinstance(expr, cst.BinaryOperation) and is_name(expr.left, name) and isinstance(expr.right, cst.Integer) \
            and isinstance(expr.operator, (cst.Add, cst.Subtract)):
        return int(expr.right.value) * (1 if isinstance(expr.operator, cst.Add) else -1)
    return None


def _names(expr) -> set:
    found = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, node):
            found.add(node.value)
    expr.visit(V())
    return found


def _writes(stmt, array) -> bool:
    """Whether stmt stores into `array[...]` (an assignment target or `op=`)."""
    hit = [False]

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            hit[0] |= isinstance(node.target, cst.Subscript) and is_name(node.target.value, array)

        def visit_AugAssign(self, node):
            hit[0] |= isinstance(node.target, cst.Subscript) and is_name(node.target.value, array)
    stmt.visit(V())
    return hit[0]


def strip_updated(stmts, mirrors, var):
    """The rewritten body `stmts` without the copies of `mirrors` (split_mirrors took them from
    the source), for the lanes function: an inner loop's `_loop_j` loses its last statement and its
    npr_vfor its `mirror=`; a chained store loses its column target; a copy statement goes. None
    when a copy is not found where the source had it (the loop then stays a loop)."""
    stmts = list(stmts)
    for tm in mirrors:
        if tm.form == "inner":
            stmts = _strip_inner(stmts, tm, var)
        elif tm.form == "chain":
            stmts = _strip_chain(stmts, tm, var)
        else:
            stmts = stmts[:-1] if stmts and _column_store(stmts[-1], tm.array, var) else None
        if stmts is None:
            return None
    return stmts


def _strip_inner(stmts, tm, var):
    name, copy, found = f"_loop_{tm.inner}", f"npr_at({tm.array})[{tm.inner}, {var}]", 0
    out = []
    for s in stmts:
        if isinstance(s, cst.FunctionDef) and s.name.value == name and s.body.body:
            last = s.body.body[-1]
            if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Assign) \
                    and _text(last.body[0].targets[0].target) == copy:
                s, found = s.with_changes(body=s.body.with_changes(body=s.body.body[:-1])), found + 1
        elif isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr):
            call = s.body[0].value
            if isinstance(call, cst.Call) and len(call.args) > 1 and is_name(call.args[1].value, name):
                call = call.with_changes(args=[a for a in call.args if not (a.keyword and a.keyword.value == "mirror")])
                s = s.with_changes(body=[s.body[0].with_changes(value=call)])
        out.append(s)
    return out if found == 1 else None


def _strip_chain(stmts, tm, var):
    if not stmts:
        return None
    last = stmts[-1]
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Assign)
            and len(last.body[0].targets) == 2):
        return None
    assign = last.body[0]
    kept = [t for t in assign.targets if not _is_column(t.target, tm.array, var)]
    if len(kept) != 1:
        return None
    return stmts[:-1] + [last.with_changes(body=[assign.with_changes(targets=kept)])]


def _column_store(s, array, var) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign) \
        and len(s.body[0].targets) == 1 and _is_column(s.body[0].targets[0].target, array, var)


def _is_column(target, array, var) -> bool:
    """Whether target is `npr_at(array)[lo:hi, var]` (or `array[lo:hi, var]`)."""
    if not isinstance(target, cst.Subscript) or len(target.slice) != 2:
        return False
    base = _text(target.value)
    first, second = (e.slice for e in target.slice)
    return base in (array, f"npr_at({array})") and isinstance(first, cst.Slice) \
        and isinstance(second, cst.Index) and is_name(second.value, var)


def _text(node) -> str:
    return cst.Module([]).code_for_node(node)


def tri_plan(loop: cst.For, var: str, facts):
    """(LanePlan of the loop without its copies, [TriMirror]) when the module docstring's proof
    holds, else None (the slot proof's own verdict then stands)."""
    from .lanes import LanePlan, lane_plan
    split = split_mirrors(loop, var)
    if split is None:
        return None
    stripped, mirrors = split
    plan = lane_plan(stripped, var, facts)
    if not isinstance(plan, LanePlan) or plan.mirrors:
        return None
    slots = dict(plan.slots)
    if any(slots.get(tm.array) != var or tm.array in {r for r, _ in plan.apart} or upper_rows(stripped, var, tm.array)
           for tm in mirrors):
        return None
    return plan, mirrors


def tri_argument(plan, mirrors):
    """npr_vfor's `tri=((slot, c, stop, kind), ...)`."""
    order = [r for r, _ in plan.slots]
    items = [cst.Element(cst.Tuple([cst.Element(cst.Integer(str(order.index(tm.array)))),
                                    cst.Element(cst.Integer(str(tm.c))),
                                    cst.Element(cst.parse_expression(tm.stop) if tm.stop is not None else cst.Name("None")),
                                    cst.Element(cst.SimpleString(repr(tm.kind)))]), comma=cst.Comma()) for tm in mirrors]
    return cst.Tuple(items)


def tri_lanes(loop: cst.For, updated_stmts, var: str, facts):
    """(LanePlan, the lanes' statements, npr_vfor's `tri=` value, words for the loop's note) when the
    loop is a row and a column per iteration; None when it is not (the slot proof's verdict stands);
    why not, when the rewrite moved the copies."""
    tri = tri_plan(loop, var, facts)
    if tri is None:
        return None
    stmts = strip_updated(updated_stmts, tri[1], var)
    if stmts is None:
        return "a body whose copies the rewrite moved"
    arrays = ", ".join(t.array for t in tri[1])
    return tri[0], stmts, tri_argument(*tri), (f"; each owns row {var} of {arrays} from column {var} on, its column "
                                               "part copied from the rows after the lanes")
