"""Recurrences through an array: a read of what an earlier trip stored becomes a loop carry.

What: in `for i in range(a, b)` (step 1 or -1) whose body stores into an array once per trip, at
its top level, `y[i + c0] = v` (or `y[i + c0] op= v`), a read `y[i + c]` with (c0 - c) * step = d
>= 1 reads what the store d trips before put (or, in the first d trips, what y held before the
loop). The store stays; the last d stored elements are carried (rt/recur.py), the reads take them,
and a read of `y[i + c0]` after the store, in the same trip, takes the element just stored:

    for n in range(2, N):                          _y_was = npr_recur(_range_n, y, 0, 2)
        y[n] = b * x[n] - a1 * y[n - 1] \\   ->      _y_was1, _y_was2 = _y_was.first
               - a2 * y[n - 2]                      def _loop_n(n, carry):
                                                        _y_was1, _y_was2 = carry
                                                        npr_at(y)[n] = b * npr_get(x)[n] - a1 * _y_was.read(y, _y_was1, n - 1) ...
                                                        _y_was0 = _y_was.stored(y, n)
                                                        _y_was1, _y_was2 = _y_was0, _y_was1
                                                        return _y_was1, _y_was2

Proof (read on the source; any doubt keeps the reads): y is a plain name used only through its
index; the one store is an unconditional top-level statement; no other statement writes y: every
other array the body writes has known storage apart from y's (analysis/aliases.py), every call is
a pure NumPy function, method or builtin (rewrite/lanes.py's table: no `out=`, no module function
that could write y through a closure), and there is no nested def, lambda, `del`, `global`, jump
or `return`; the loop variable is not assigned. At trace time rt/recur.py also needs static
bounds, a 1-d Ref, every index involved in range and not negative (no wrap-around), and no other
array the body writes sharing an element with y (a caller passing one array as two parameters).
Exact: each carried value is the element as the array holds it after the store (its dtype's cast).
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from .lane_reads import _plus, code
from .lanes import _Accesses, _aug_names, _assigned_names, _written_arrays
from .pallas_loops import PALLAS
from .sum_reorder import SUMS
from ..analysis.nodes import _toured, run_visitor
from ..emit import jaxnames as J

MAX_DEPTH = 8  # carried elements per array (a longer reach keeps its reads)
_BARRED = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal, cst.Del, cst.Return,
           cst.Break, cst.Continue, cst.Try, cst.Yield, cst.Await)
_BARRED_KINDS: dict[type, bool] = {}  # node type -> whether it is one of _BARRED


@dataclasses.dataclass(frozen=True)
class Recurrence:
    array: str
    at: int                     # the store's offset: `y[i + at] = ...`
    store: str                  # the store's index, as written
    reads: tuple[tuple[str, int], ...]  # (index as written, trips back) of each forwarded read
    others: tuple[str, ...] = ()  # the other arrays the body writes (npr_recur checks them apart)

    @property
    def depth(self) -> int:
        return max(d for _, d in self.reads)

    def slot(self, d: int) -> str:
        return f"_{self.array}_was{d}"


def recurrences(loop: cst.For, var: str, facts) -> tuple[Recurrence, ...] | str:
    """The arrays whose earlier trips' stores `loop` reads back (module docstring), or why none."""
    step = _unit_step(loop.iter)
    if step is None:
        return "a range whose step is not 1 or -1"
    why = _barred(loop.body)
    if why:
        return why
    if var in _assigned_names(loop.body) | _aug_names(loop.body):
        return "the loop variable is assigned"
    stores = _top_stores(loop.body.body, var)
    if not stores:
        return "no top-level store `y[i + c] = ...`"
    acc = _Accesses(set(stores))
    run_visitor(loop.body, acc)
    if acc.why:
        return acc.why
    written = _written_arrays(loop.body) | {n for n in _aug_names(loop.body) if n in facts.ref_names}
    if "?" in written or any(not facts.roots.get(w) for w in written):
        return "a written array whose storage is unknown"
    found = []
    for name, (at, target) in sorted(stores.items()):
        others = [facts.roots[w] for w in written if w != name]
        if _targets(loop.body, name) != 1 or any(facts.roots[name] & r for r in others):
            continue
        reads = []
        for elements in acc.slices[name]:
            if elements is target.slice or len(elements) != 1 or not isinstance(elements[0].slice, cst.Index):
                continue
            c = _plus(elements[0].slice.value, var)
            if c is not None and 1 <= (at - c) * step <= MAX_DEPTH:
                reads.append((code(elements), (at - c) * step))
        if reads:
            found.append(Recurrence(name, at, code(target.slice), tuple(dict.fromkeys(reads)),
                                    tuple(sorted(written - {name}))))
    return tuple(found) or "no read of an element an earlier trip stored"


def _unit_step(it) -> int | None:
    args = [a.value for a in it.args] if isinstance(it, cst.Call) else []
    if not args or any(a.keyword is not None or a.star for a in it.args) or len(args) > 3:
        return None
    if len(args) < 3:
        return 1
    s = args[2]
    if isinstance(s, cst.Integer) and s.value == "1":
        return 1
    if isinstance(s, cst.UnaryOperation) and isinstance(s.operator, cst.Minus) and \
            isinstance(s.expression, cst.Integer) and s.expression.value == "1":
        return -1
    return None


def _barred(body) -> str:
    toured = _toured(body)
    if toured is not None and toured[0].nodes[toured[1]] is body:  # (read from the tour, in libcst's
        tour, start = toured  # order, layout left out: the same first node as the visitor below; issue 43)
        for p in range(start, tour.close[start]):
            kind = type(tour.nodes[p])
            hit = _BARRED_KINDS.get(kind)
            if hit is None:
                hit = _BARRED_KINDS[kind] = issubclass(kind, _BARRED)
            if hit:
                return f"a {kind.__name__} in the body"
        return ""
    found = []

    class V(cst.CSTVisitor):
        def on_visit(self, node):
            if isinstance(node, _BARRED):
                found.append(type(node).__name__)
            return not found
    run_visitor(body, V())
    return f"a {found[0]} in the body" if found else ""


def _top_stores(stmts, var) -> dict:
    """{array: (offset, target Subscript)} of the top-level statements `y[var + c] = v` / `op= v`."""
    found: dict = {}
    for s in stmts:
        if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1):
            continue
        x = s.body[0]
        t = x.targets[0].target if isinstance(x, cst.Assign) and len(x.targets) == 1 else \
            x.target if isinstance(x, cst.AugAssign) else None
        if not (isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and len(t.slice) == 1
                and isinstance(t.slice[0].slice, cst.Index)):
            continue
        c = _plus(t.slice[0].slice.value, var)
        if c is not None:
            found.setdefault(t.value.value, (c, t))  # (a second store of it: _targets refuses)
    return found


def _targets(body, name) -> int:
    """How many assignment targets anywhere in body are subscripts of `name`."""
    count = [0]

    def walk(t):
        if isinstance(t, (cst.Tuple, cst.List)):
            for e in t.elements:
                walk(e.value)
        elif isinstance(t, cst.StarredElement):
            walk(t.value)
        elif isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value == name:
            count[0] += 1

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            walk(node.target)

        def visit_AugAssign(self, node):
            walk(node.target)

        def visit_AnnAssign(self, node):
            walk(node.target)

        def visit_For(self, node):
            walk(node.target)
    run_visitor(body, V())
    return count[0]


# -- emission --------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Forwarding:
    recs: tuple[Recurrence, ...]

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(r.slot(d) for r in self.recs for d in range(1, r.depth + 1))

    def before(self, rng: cst.BaseExpression) -> list[cst.BaseStatement]:
        """`_y_was = npr_recur(range, y, at, depth, *other written arrays)` and the first trip's
        slots, per array."""
        out = []
        for r in self.recs:
            made = cst.Call(cst.Name(J.RECUR), [cst.Arg(rng), cst.Arg(cst.Name(r.array)),
                                                    cst.Arg(cst.parse_expression(str(r.at))), cst.Arg(cst.Integer(str(r.depth))),
                                                    *[cst.Arg(cst.Name(w)) for w in r.others]])
            out.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(f"_{r.array}_was"))], made)]))
            slots = ", ".join(r.slot(d) for d in range(1, r.depth + 1))
            out.append(cst.parse_statement(f"{slots}{',' if r.depth == 1 else ''} = _{r.array}_was.first"))
        return out

    def body(self, stmts) -> list:
        """The body with the forwarded reads taking their slots, then the slots moved one trip on."""
        stmts = [s.visit(_ToSlots(self.recs)) for s in stmts]
        for r in self.recs:
            # the element as stored, taken right after the store: later stores of other arrays
            # of its shape hide which array a load is of (lowering._npr_last_store reads back)
            taken = cst.parse_statement(f"{r.slot(0)} = _{r.array}_was.stored({r.array}, {r.store})")
            at = next((k + 1 for k, s in enumerate(stmts) if _stores_into(s, r)), None)
            if at is None:
                at = len(stmts)
            else:  # a read of the element after its store, in this trip, takes it too
                after = _ToSlots([dataclasses.replace(r, reads=((r.store, 0),))])
                stmts[at:] = [s.visit(after) for s in stmts[at:]]
            stmts.insert(at, taken)
            slots = [r.slot(d) for d in range(0, r.depth + 1)]
            stmts.append(cst.parse_statement(f"{', '.join(slots[1:])} = {', '.join(slots[:-1])}"))
        return stmts

    def note(self) -> str:
        reads = ", ".join(f"{r.array}[{c}]" for r in self.recs for c, _ in r.reads)
        return f"a lax loop carrying {reads} from the trips that stored them (rt/recur.py)"


def _stores_into(stmt, r: Recurrence) -> bool:
    """Whether stmt is the emitted store `npr_at(y)[i + at] = ...` (or `op=`) of r."""
    x = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    t = x.targets[0].target if isinstance(x, cst.Assign) and len(x.targets) == 1 else \
        x.target if isinstance(x, cst.AugAssign) else None
    return isinstance(t, cst.Subscript) and isinstance(t.value, cst.Call) and code(t.slice) == r.store \
        and isinstance(t.value.func, cst.Name) and t.value.func.value == J.STORE_PROXY and len(t.value.args) == 1 \
        and isinstance(t.value.args[0].value, cst.Name) and t.value.args[0].value.value == r.array


class _ToSlots(cst.CSTTransformer):
    """`npr_get(y, ...)[n - 1]` / `y[...][n - 1]` -> `_y_was.read(y, _y_was1, n - 1)`."""

    def __init__(self, recs):
        self.reads = {(r.array, c): (r, d) for r in recs for c, d in r.reads}

    def leave_Subscript(self, original, updated):
        v = updated.value
        array = v.args[0].value if isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and \
            v.func.value == "npr_get" and v.args else v.value if isinstance(v, cst.Subscript) and \
            len(v.slice) == 1 and isinstance(v.slice[0].slice, cst.Index) and \
            isinstance(v.slice[0].slice.value, cst.Ellipsis) else None
        if not isinstance(array, cst.Name) or len(updated.slice) != 1:
            return updated
        hit = self.reads.get((array.value, code(updated.slice)))
        if hit is None:
            return updated
        r, d = hit
        return cst.parse_expression(f"_{r.array}_was.read({r.array}, {r.slot(d)}, {code(updated.slice)})")


def forwarding(original: cst.For, plan, ctx):
    """(the loop's plan with the slots carried, Forwarding) for the recurrences to carry in this
    lax `range` loop; (plan, None) when there are none or the loop's form keeps its reads."""
    if plan.kind != "range" or plan.python or plan.rows or plan.unpack or plan.rotations or plan.unrotate \
            or plan.appends or plan.unroll or any(c.startswith("_break_") for c in plan.carried) \
            or PALLAS.get() or SUMS.get() == "reorder":
        return plan, None
    found = recurrences(original, plan.var, ctx.f)
    if isinstance(found, str):
        return plan, None
    # npr_recur names the other written arrays before the loop: each must be bound there (not
    # bound by the body itself: a view made in a trip is checked by the proof's roots alone)
    inside = _assigned_names(original.body)
    bound = {t.value for t, _ in ctx.f.bindings if isinstance(t, cst.Name)} | set(ctx.f.params)
    found = tuple(r for r in found if not any(w in inside or w in bound and w not in plan.defined_before
                                              for w in r.others))
    if not found:
        return plan, None
    fwd = Forwarding(found)
    return dataclasses.replace(plan, carried=plan.carried + fwd.slots,
                               defined_before=plan.defined_before | set(fwd.slots)), fwd
